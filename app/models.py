"""Every ORM model, imported once so `Base.metadata` is complete (Alembic's env.py and the tests use this).
A new domain adds one import line here."""

from app.accounts import models as accounts_models  # noqa: F401
from app.core.db import Base
from app.friends import models as friends_models  # noqa: F401
from app.ledger import models as ledger_models  # noqa: F401
from app.online import models as online_models  # noqa: F401
from app.ratings import models as ratings_models  # noqa: F401
from app.rooms import models as rooms_models  # noqa: F401
from app.tables import models as tables_models  # noqa: F401

metadata = Base.metadata
