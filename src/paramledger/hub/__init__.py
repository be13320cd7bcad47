"""Hub ids (``org/name[@revision]``): a config.json through huggingface_hub, with its cache, token
and HF_ENDPOINT honoured as transformers honours them, and checkpoint headers through HTTP range
requests (hub/ranges.py), never the weights.

Nothing here runs for a bundled name or a local file: ``sources`` reaches this package only once
those have not matched, and huggingface_hub is imported only then.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# huggingface_hub's validate_repo_id: word characters, "-" and "." (no "--" or ".." and no leading or
# trailing "-" or "."), at most 96 characters for "org/name"
_PART = re.compile(r"[A-Za-z0-9_](?:[\w.-]*[A-Za-z0-9_])?")
_REVISION = re.compile(r"[\w./+-]{1,200}")  # a branch, a tag, a commit, refs/pr/1


class HubId(NamedTuple):
    repo: str  # "org/name"
    revision: str | None  # a branch, tag or commit; None for the repo's default (main)

    @property
    def name(self) -> str:
        return self.repo.split("/")[1]

    def __str__(self) -> str:
        return self.repo if self.revision is None else f"{self.repo}@{self.revision}"


def parse(text: str) -> HubId | None:
    """``text`` as a hub id, or None when it is not one ("./x", "a/b/c", "x")."""
    repo, at, revision = text.partition("@")
    org, slash, name = repo.partition("/")
    if not slash or len(repo) > 96 or "--" in repo or ".." in repo:
        return None
    if not _PART.fullmatch(org) or not _PART.fullmatch(name):
        return None
    if at and not _REVISION.fullmatch(revision) or ".." in revision:
        return None
    return HubId(repo, revision or None)


def looks_like(text: str) -> bool:
    """Whether ``text`` is meant as a hub id, even one with a revision that holds slashes."""
    return parse(text) is not None
