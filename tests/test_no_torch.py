"""Counting needs neither torch nor transformers: a fresh interpreter with both blocked
(a sys.meta_path finder refuses them) imports paramledger and counts every bundled model,
every family's default config and a config.json; verify says how to install the reference."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

BLOCKER = textwrap.dedent("""
    import sys
    from importlib.abc import MetaPathFinder

    BLOCKED = ("torch", "transformers")

    class Refuse(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked in this test")
            return None

    sys.meta_path.insert(0, Refuse())
    for name in list(sys.modules):
        if name.split(".")[0] in BLOCKED:
            del sys.modules[name]
""")


def run_blocked(body: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKER + textwrap.dedent(body)],
                          capture_output=True, text=True, timeout=120)


def test_blocker_really_blocks():
    result = run_blocked("import torch")
    assert result.returncode == 1
    assert "torch is blocked in this test" in result.stderr


def test_count_everything_without_torch_or_transformers(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "gpt2"}), encoding="utf-8")
    result = run_blocked(f"""
        import json, sys
        import paramledger
        from paramledger import families
        from paramledger.sources import bundled_models
        totals = {{name: paramledger.inventory(name).total for name in bundled_models()}}
        from paramledger.reference import default_config
        for model_type in families.supported():
            totals[model_type] = paramledger.inventory(default_config(model_type)).total
        totals["config.json"] = paramledger.inventory({str(config)!r}).total
        assert not any(name.split(".")[0] in ("torch", "transformers") for name in sys.modules)
        print(json.dumps(totals))
    """)
    assert result.returncode == 0, result.stderr
    totals = json.loads(result.stdout)
    assert totals["config.json"] == totals["gpt2"] == 124_439_808
    assert totals["deepseek_v3"] == 671_026_404_352
    from paramledger import families

    assert set(families.supported()) <= set(totals)


def test_cli_count_without_torch():
    result = run_blocked("""
        from paramledger.cli import main
        raise SystemExit(main(["count", "seed-baseline"]))
    """)
    assert result.returncode == 0, result.stderr
    assert "13,110,528" in result.stdout


def test_verify_without_torch_is_one_line_naming_the_extra():
    result = run_blocked("""
        from paramledger.cli import main
        raise SystemExit(main(["verify", "seed-baseline"]))
    """)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == ('paramledger: error: verification needs torch and transformers: '
                             'pip install "paramledger[reference]"\n')


def test_reference_api_without_torch_raises_reference_unavailable():
    result = run_blocked("""
        from paramledger._exceptions import ReferenceUnavailableError
        from paramledger.reference import build_reference
        try:
            build_reference({"model_type": "llama"})
        except ReferenceUnavailableError as error:
            print(error)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == 'verification needs torch and transformers: pip install "paramledger[reference]"'


def test_missing_optional_library_is_one_line(tmp_path):
    """Without the analysis extra, a command that needs it says which extra, in one line."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "class Refuse:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('sympy', 'matplotlib'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Refuse())\n"
        "from paramledger.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code, "formula", "seed-baseline"], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr == 'paramledger: error: formula needs sympy: pip install "paramledger[analysis]"\n'
    plot = tmp_path / "w.png"
    result = subprocess.run([sys.executable, "-c", code, "whatif", "seed-baseline", "--vary", "vocab_size=8192",
                             "--plot", str(plot)], capture_output=True, text=True)
    assert result.returncode == 2 and "needs matplotlib" in result.stderr and "Traceback" not in result.stderr
    assert not plot.exists()
