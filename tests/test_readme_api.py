"""The Python API example in the README runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_api_example_runs(capsys):
    text = README.read_text()
    section = text.split("## Python API", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    exec(compile(code, "README.md", "exec"), {})
    assert "kernel-checked" in capsys.readouterr().out
