"""Audits run as jobs: the answer an audit route gives, the route that polls an audit, and the house keys.

A route that audits answers 200 with the report when it has one (a small audit
run in the request, or a result kept from an earlier ask, then with
`Content-Location` naming the audit), else 202 with the audit's record, its
`Location` to poll and `Retry-After`.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, url_for
from flask.typing import ResponseReturnValue

from service.application.audits import POLL_AFTER_S, QUEUED, RUNNING, Answer
from service.http.requests import services

audits = Blueprint("audits", __name__)


def audit_response(answer: Answer) -> Response:
    """Return the report (200), or the audit to poll (202 with Location and Retry-After)."""
    if answer.report is not None:
        response = jsonify(answer.report)
        if answer.job is not None:
            response.headers["Content-Location"] = url_for("audits.get_audit", audit_id=answer.job["id"])
        return response
    assert answer.job is not None
    response = jsonify(answer.job)
    response.status_code = 202
    response.headers["Location"] = url_for("audits.get_audit", audit_id=answer.job["id"])
    response.headers["Retry-After"] = str(POLL_AFTER_S)
    return response


@audits.get("/audits/<audit_id>")
def get_audit(audit_id: str) -> ResponseReturnValue:
    """Return an audit's status and progress, and its result once done (Retry-After while it runs)."""
    job = services().audits.status(audit_id)
    response = jsonify(job)
    if job["status"] in (QUEUED, RUNNING):
        response.headers["Retry-After"] = str(POLL_AFTER_S)
    return response


@audits.get("/.well-known/menagerie-keys")
def house_keys() -> ResponseReturnValue:
    """Return the house's public keys, current and retired, that sign finished results."""
    return jsonify({"keys": services().signatures.keys.public_keys()})
