"""Small files of a hub repo (config.json, an index json) through huggingface_hub's own download,
so its cache, token, HF_ENDPOINT and HF_HUB_OFFLINE work as they do for transformers; and what a
repo holds (the hub's file listing, or the cached snapshot when offline).

A download is bounded while it runs: huggingface_hub reports every chunk to the progress class it
is given, and this one refuses a file beyond the bound of its kind (limits.JSON_BOUNDS) and a
download that outlasts its deadline (a server trickling bytes), before more reaches the disk.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .._exceptions import FileFormatError, SourceError
from ..limits import JSON_BOUNDS
from . import HubId
from .errors import offline, translated
from .progress import task

DEADLINE = 120.0  # seconds for one small file, whatever the server's pace


def _bounded(label: str, limit: int, progress: Any) -> type:
    """A class huggingface_hub's http_get takes as its tqdm: it sees the size and every chunk."""
    started = time.monotonic()

    class Bounded:
        def __init__(self, *_: Any, total: int | None = None, initial: int = 0, **__: Any) -> None:
            self.n = initial
            if total is not None and total > limit:
                raise FileFormatError(label, f"{total:,} bytes: beyond the {limit:,}-byte bound for this file")

        def update(self, n: int = 1) -> None:
            self.n += n
            if self.n > limit:
                raise FileFormatError(label, f"more than {limit:,} bytes: beyond the bound for this file")
            if time.monotonic() - started > DEADLINE:
                raise SourceError(label, f"the download took more than {DEADLINE:.0f} s")
            progress.update(f"{self.n:,} bytes")

        def __enter__(self) -> Bounded:
            return self

        def __exit__(self, *_: Any) -> None:
            return None

        def close(self) -> None:
            return None

    return Bounded


def download(hub_id: HubId, filename: str, kind: str = "config", revision: str | None = None) -> Path:
    """``filename`` of the repo in the local cache (fetched first when it is not there)."""
    from huggingface_hub import hf_hub_download

    label = f"{hub_id.repo}/{filename}"
    with task(f"fetching {label} from the hub") as progress, translated(hub_id, filename):
        return Path(hf_hub_download(hub_id.repo, filename, revision=revision or hub_id.revision,
                                    tqdm_class=_bounded(label, JSON_BOUNDS[kind][0], progress)))


def config_file(hub_id: HubId) -> Path:
    """The repo's config.json in the local cache."""
    return download(hub_id, "config.json")


def cached_snapshot(hub_id: HubId) -> tuple[str, Path] | None:
    """(commit, snapshot folder) of the revision in huggingface_hub's cache, or None."""
    from huggingface_hub import constants
    from huggingface_hub.file_download import REGEX_COMMIT_HASH, repo_folder_name

    storage = Path(constants.HF_HUB_CACHE) / repo_folder_name(repo_id=hub_id.repo, repo_type="model")
    revision = hub_id.revision or "main"
    commit = revision
    if not REGEX_COMMIT_HASH.fullmatch(revision):
        try:
            commit = (storage / "refs" / revision).read_text().strip()
        except (OSError, UnicodeDecodeError):
            return None
    folder = storage / "snapshots" / commit
    return (commit, folder) if folder.is_dir() and REGEX_COMMIT_HASH.fullmatch(commit) else None


def is_offline() -> bool:
    from huggingface_hub import constants

    return constants.is_offline_mode()


def listing(hub_id: HubId, revision: str) -> tuple[str, list[str]]:
    """(commit, file names) of the repo at ``revision``: the hub's /api/models/{repo}/revision/{rev},
    read within the index bound (a hostile answer cannot grow without end)."""
    from urllib.parse import quote

    from huggingface_hub import constants

    from ..limits import json_text
    from .ranges import bounded_get

    url = f"{constants.ENDPOINT}/api/models/{hub_id.repo}/revision/{quote(revision, safe='')}"
    with translated(hub_id, "the file listing"):
        data = bounded_get(hub_id, url, JSON_BOUNDS["index"][0], "the file listing")
    info = json_text(data, f"{hub_id} (file listing)", "index")
    siblings = info.get("siblings") if isinstance(info, dict) else None
    commit = info.get("sha") if isinstance(info, dict) else None
    if not isinstance(siblings, list) or not isinstance(commit, str):
        raise FileFormatError(f"{hub_id} (file listing)", "the hub's answer has no 'sha' and 'siblings'")
    names = [entry["rfilename"] for entry in siblings
             if isinstance(entry, dict) and isinstance(entry.get("rfilename"), str)]
    return commit, names


def require_online(hub_id: HubId, what: str) -> None:
    if is_offline():
        raise SourceError(str(hub_id), offline(what))
