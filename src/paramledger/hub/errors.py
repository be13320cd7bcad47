"""What went wrong with the hub, as one line each: offline and not cached, a gated repo without a
token, a missing repo, revision or file, the network refused or too slow, a hostile answer.

huggingface_hub raises its own classes (errors.py), and wraps a failed HEAD in
LocalEntryNotFoundError when the file is not in the cache either; the reason is in the chain.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._exceptions import ParamledgerError, SourceError
from . import HubId

LOGIN = "log in with `hf auth login` or set HF_TOKEN"


def _chain(error: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    while error is not None and error not in seen and len(seen) < 16:
        seen.append(error)
        error = error.__cause__ or error.__context__
    return seen


def _endpoint() -> str:
    from huggingface_hub import constants

    return constants.ENDPOINT


def _has_token() -> bool:
    from huggingface_hub import get_token

    return get_token() is not None


def gated(hub_id: HubId) -> str:
    if _has_token():
        return f"gated repo, and the token in use has no access: request access on {_endpoint()}/{hub_id.repo}"
    return f"gated repo: accept its terms on {_endpoint()}/{hub_id.repo}, then {LOGIN}"


def missing_repo(hub_id: HubId) -> str:
    private = "" if _has_token() else f" (a private repo needs a token: {LOGIN})"
    return f"no such repo on {_endpoint()}{private}"


def missing_revision(hub_id: HubId) -> str:
    return f"no revision {hub_id.revision or 'main'!r} in {hub_id.repo} on {_endpoint()}"


def offline(what: str, none: bool = False) -> str:
    """``none``: ``what`` says "no ..." ("no weights file of the repo is in the local cache")."""
    from huggingface_hub import constants

    return f"offline (HF_HUB_OFFLINE=1) and {what} {'is' if none else 'is not'} in the local cache " \
           f"({constants.HF_HUB_CACHE})"


def unreachable(what: str) -> str:
    return f"the hub at {_endpoint()} refused the connection or cannot be reached, and {what} is not in the local cache"


def timed_out(what: str) -> str:
    return f"the hub at {_endpoint()} did not answer in time for {what} (HF_HUB_DOWNLOAD_TIMEOUT, HF_HUB_ETAG_TIMEOUT)"


def by_status(hub_id: HubId, what: str, status: int, code: str | None) -> SourceError:
    """An HTTP answer that is no success, read from its status and X-Error-Code (hf_raise_for_status)."""
    if code == "GatedRepo" or status == 403 and code is None and not _has_token():
        return SourceError(str(hub_id), gated(hub_id))
    if code == "RevisionNotFound":
        return SourceError(str(hub_id), missing_revision(hub_id))
    if code == "EntryNotFound":
        return SourceError(str(hub_id), f"the repo has no {what}")
    if code == "RepoNotFound" or status == 401:
        return SourceError(str(hub_id), missing_repo(hub_id))
    return SourceError(str(hub_id), f"the hub at {_endpoint()} answered HTTP {status} for {what}")


def translate(hub_id: HubId, what: str, error: BaseException) -> ParamledgerError:
    """huggingface_hub's or httpx2's ``error`` while fetching ``what`` as one line."""
    import httpx2
    from huggingface_hub import errors

    chain = _chain(error)

    def found(*kinds: Any) -> bool:
        return any(isinstance(link, kinds) for link in chain)

    source = str(hub_id)
    if found(ParamledgerError):
        return next(link for link in chain if isinstance(link, ParamledgerError))
    if found(errors.GatedRepoError):
        return SourceError(source, gated(hub_id))
    if found(errors.RevisionNotFoundError):
        return SourceError(source, missing_revision(hub_id))
    if found(errors.RemoteEntryNotFoundError):
        return SourceError(source, f"the repo has no {what}")
    if found(errors.RepositoryNotFoundError):
        return SourceError(source, missing_repo(hub_id))
    if found(errors.OfflineModeIsEnabled):
        return SourceError(source, offline(what))
    if found(httpx2.TimeoutException):
        return SourceError(source, timed_out(what))
    if found(httpx2.ConnectError, httpx2.NetworkError):
        return SourceError(source, unreachable(what))
    http = next((link for link in chain if isinstance(link, errors.HfHubHTTPError)), None)
    if http is not None and getattr(http, "response", None) is not None:
        response = http.response
        return by_status(hub_id, what, response.status_code, response.headers.get("X-Error-Code"))
    if found(errors.FileMetadataError):
        return SourceError(source, f"{_endpoint()} does not answer as a Hugging Face hub does (HF_ENDPOINT?)")
    if found(httpx2.HTTPError):
        return SourceError(source, f"{what} could not be read from {_endpoint()} ({error.__class__.__name__})")
    return SourceError(source, f"{what} could not be fetched from the hub ({error.__class__.__name__})")


@contextmanager
def translated(hub_id: HubId, what: str) -> Iterator[None]:
    """Every failure inside the block as one line about ``what`` of ``hub_id``."""
    try:
        yield
    except ParamledgerError:
        raise
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except Exception as error:  # huggingface_hub's, httpx2's, an OSError from the cache
        raise translate(hub_id, what, error) from None
