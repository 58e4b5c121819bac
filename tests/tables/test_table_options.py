"""Table options come from players: out-of-range and non-finite values are a 422 where a table or room is made,
never a table that cannot start or a message the client cannot parse (issue 14)."""

from __future__ import annotations

import pytest

BAD_ALERTS = ["0", "-1", "0.5", "31", "1e9", "NaN", "Infinity", "-Infinity", "1e400", '"3"', "true", "null"]


@pytest.mark.parametrize("alert", BAD_ALERTS)
async def test_a_vs_bots_table_refuses_a_pika_alert_out_of_range(harness, alert):
    ada = await harness.user("ada")
    response = await ada.post("/api/tables", content=f'{{"game":"pika","seats":2,"options":{{"alert_seconds":{alert}}}}}',
                              headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["error"]["code"] in ("bad_option", "malformed_json", "validation_error")


@pytest.mark.parametrize("alert", BAD_ALERTS)
async def test_a_room_refuses_a_pika_alert_out_of_range_before_it_can_start(harness, alert):
    ada = await harness.user("ada")
    response = await ada.post("/api/rooms", content=f'{{"game":"pika","seats":2,"options":{{"alert_seconds":{alert}}}}}',
                              headers={"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500, response.text


async def test_in_range_alerts_are_taken_as_numbers(harness):
    ada = await harness.user("ada")
    for alert in (1, 2.5, 30):
        response = await ada.post("/api/rooms", json={"game": "pika", "seats": 2, "options": {"alert_seconds": alert}})
        assert response.status_code == 201, response.text
        assert response.json()["options"]["alert_seconds"] == float(alert)
