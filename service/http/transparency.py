"""The transparency log over HTTP: its signed checkpoint and key, its entries, and proofs.

Hashes travel in base64, as in the checkpoint itself. The checkpoint and the key are
plain text in their C2SP forms, so that existing note and checkpoint tools read them.
"""

from __future__ import annotations

import base64

from flask import Blueprint, Response, jsonify
from flask.typing import ResponseReturnValue

from service.application.transparency import InclusionProof
from service.http.requests import query, services
from service.http.schemas import CONSISTENCY_QUERY, ENTRIES_QUERY, INCLUSION_QUERY, RESULT_INCLUSION_QUERY

transparency = Blueprint("transparency", __name__)

# A checkpoint grows with every result: a cache may keep it for no time at all.
NO_STORE = {"Cache-Control": "no-store"}


def _b64(value: bytes) -> str:
    return base64.b64encode(value).decode()


@transparency.get("/log/checkpoint")
def get_checkpoint() -> ResponseReturnValue:
    """Return the log's present checkpoint, a C2SP signed note."""
    return Response(services().log.signed_checkpoint(), mimetype="text/plain", headers=NO_STORE)


@transparency.get("/log/key")
def get_key() -> ResponseReturnValue:
    """Return the key checkpoints verify with, in the signed-note verifier key form."""
    return Response(services().log.verifier_key().text() + "\n", mimetype="text/plain")


@transparency.get("/log/entries/<int:index>")
def get_entry(index: int) -> ResponseReturnValue:
    """Return entry `index`: the result statement's bytes exactly as its leaf hashes them."""
    return Response(services().log.entry(index), mimetype="application/json")


@transparency.get("/log/entries")
def get_entries() -> ResponseReturnValue:
    """Return up to `limit` entries from `start`, each as its exact text (canonical JSON is ASCII)."""
    args = query(ENTRIES_QUERY)
    entries = services().log.entries(args["start"], args["limit"])
    return jsonify({"start": args["start"], "entries": [entry.decode("ascii") for entry in entries]})


@transparency.get("/log/proof/inclusion")
def get_result_inclusion() -> ResponseReturnValue:
    """Return the proof that a result (by its id) is in the tree of `size` leaves."""
    args = query(RESULT_INCLUSION_QUERY)
    log = services().log
    return _inclusion(log.inclusion(log.index_of(args["id"]), args["size"]))


@transparency.get("/log/proof/inclusion/<int:index>")
def get_inclusion(index: int) -> ResponseReturnValue:
    """Return the proof that leaf `index` is in the tree of `size` leaves."""
    return _inclusion(services().log.inclusion(index, query(INCLUSION_QUERY)["size"]))


def _inclusion(proof: InclusionProof) -> ResponseReturnValue:
    return jsonify(
        {
            "index": proof.index,
            "size": proof.size,
            "leaf_hash": _b64(proof.leaf),
            "proof": [_b64(p) for p in proof.path],
        }
    )


@transparency.get("/log/proof/consistency")
def get_consistency() -> ResponseReturnValue:
    """Return the proof that the tree of `from` leaves is a prefix of the tree of `to` leaves."""
    args = query(CONSISTENCY_QUERY)
    second, path = services().log.consistency(args["first"], args["second"])
    return jsonify({"from": args["first"], "to": second, "proof": [_b64(p) for p in path]})
