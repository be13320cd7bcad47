"""Write src/paramledger/families/strict_nulls.json: each supported type's decoder-section config class's fields that
take no null (tests/_strict_nulls.py), as transformers 5.24.0's classes declare them.

Run: cd tests && PYTHONPATH=../src:. python ../scripts/strict_nulls.py
"""

from __future__ import annotations

import json
import pathlib
import warnings

from _strict_nulls import by_table

warnings.filterwarnings("ignore")
path = pathlib.Path(__file__).resolve().parent.parent / "src" / "paramledger" / "families" / "strict_nulls.json"
table = by_table()
path.write_text(json.dumps(table, separators=(",", ":"), sort_keys=True).replace('],"', '],\n"') + "\n")
print(f"{path}: {len(table) - 1} tables, {sum(map(len, table.values())):,} fields")
