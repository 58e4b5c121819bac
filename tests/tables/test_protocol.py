"""docs/protocol.md carries the JSON Schemas generated from the protocol models; they must not drift apart."""

from app.realtime import protocol


def test_protocol_doc_has_the_current_schemas():
    text = protocol.DOC_PATH.read_text()
    assert text == protocol.render_doc(protocol.doc_head(text)), "run `python -m app.realtime.protocol`"


def test_client_messages_are_told_apart_by_type():
    join = protocol.client_message_adapter.validate_python({"type": "join", "table": "t", "since": 3})
    act = protocol.client_message_adapter.validate_python({"type": "act", "table": "t", "action": {"type": "draw"}})
    assert isinstance(join, protocol.Join) and join.since == 3
    assert isinstance(act, protocol.Act) and act.action == {"type": "draw"}
