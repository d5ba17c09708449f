"""Log filters named in ``config.settings.LOGGING``."""

from __future__ import annotations

import logging

from config.outages import unreachable_part


class OneLineRefusals(logging.Filter):
    """A request answered with a 4xx is logged as one line, without the traceback Django attaches.

    Django logs some refusals with the exception that caused them (a body over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``, a bad ``Host`` header, a permission denied): the request was
    handled, the traceback says nothing about the server, and any client could fill the log with them.
    Django marks each such record with the response's ``status_code``; 5xx records keep their traceback,
    but for a part that is down (a 503 for an outage, ``config.outages``): that is one line per request.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status_code = getattr(record, "status_code", None)
        outage = status_code == 503 and record.exc_info is not None and unreachable_part(record.exc_info[1])
        if (isinstance(status_code, int) and 400 <= status_code < 500) or outage:
            record.exc_info = None
            record.exc_text = None
        return True
