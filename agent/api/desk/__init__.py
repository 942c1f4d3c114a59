"""The research desk: the browser front end of ``sleuth serve`` (ask, watch a run, read and check the
report, search, add documents, the runs list).

Pages are rendered on the server from the templates in ``templates/`` with small scripts and one style sheet
from ``static/``, all shipped in the package: no build step, nothing fetched from the internet at run time.
"""

from sleuth.agent.api.desk.routes import desk_router

__all__ = ["desk_router"]
