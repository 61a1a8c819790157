"""The transparency log's rules: RFC 9162 Merkle hashing and proofs, C2SP checkpoints and signed notes.

Pure: no keys, no Redis, no clock. Signing and verifying a signature are
handed in by the caller (`notes.Signer`, `notes.Verifier`).
"""
