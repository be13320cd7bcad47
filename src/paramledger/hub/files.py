"""Small files of a hub repo (config.json, an index json) through huggingface_hub's own download,
so its cache, token, HF_ENDPOINT and HF_HUB_OFFLINE work as they do for transformers; and what a
repo holds (the hub's file listing, or the cached snapshot when offline).

A download is bounded while it runs: huggingface_hub reports every chunk to the progress class it
is given, and this one refuses a file beyond the bound of its kind (limits.JSON_BOUNDS) and a
download that outlasts its deadline (a server trickling bytes), before more reaches the disk.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
    revision = revision or hub_id.revision
    with task(f"fetching {label} from the hub") as progress, translated(hub_id, filename), _quiet_library():
        _probe(hub_id, filename, revision)
        return Path(hf_hub_download(hub_id.repo, filename, revision=revision,
                                    tqdm_class=_bounded(label, JSON_BOUNDS[kind][0], progress)))


def _probe(hub_id: HubId, filename: str, revision: str | None) -> None:
    """One HEAD without retries before a file that is not cached yet: a refused connection or an unknown
    host fails at once (hf_hub_download would retry for 23 s, 1 + 2 + 4 + 8 + 8, before saying so)."""
    import httpx2
    from huggingface_hub import constants, errors, get_hf_file_metadata, hf_hub_url, try_to_load_from_cache

    if constants.is_offline_mode() or try_to_load_from_cache(hub_id.repo, filename, revision=revision) is not None:
        return
    try:
        get_hf_file_metadata(hf_hub_url(hub_id.repo, filename, revision=revision), retry_on_errors=False)
    except (httpx2.ConnectError, httpx2.ConnectTimeout):
        raise
    except errors.HfHubHTTPError as error:  # a missing repo, revision or file, a gated repo: final
        status = error.response.status_code if error.response is not None else 500
        if status < 500 and status != 429:
            raise
    except Exception:  # a 5xx or a 429 is worth huggingface_hub's retries
        return


@contextmanager
def _quiet_library() -> Iterator[None]:
    """huggingface_hub's own warnings ("Retrying in 1s") off stderr: its failure becomes one line."""
    logger = logging.getLogger("huggingface_hub")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


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
