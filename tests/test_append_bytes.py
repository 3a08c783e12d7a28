"""Appending entries keeps the catalogue file's text as it was, its line ends too (a
carriage return is not turned into a newline: found by tests/test_fuzz.py)."""

from gyges.puzzles.catalogue.writing import append_entries


def test_the_old_text_is_kept_byte_for_byte(tmp_path):
    path = tmp_path / "c.yaml"
    before = b'\rschema: 1\r\ntitle: "Fuzz"\npuzzles:\n'
    path.write_bytes(before)
    entry = ('- id: x\n  position: "....../3...../..1.1./1.23.3/3.22.1/....2. N"\n'
             '  stipulation: North wins in 1\n  solution:\n    key: "51-43-33-31-21-S"\n'
             '    main-line:\n      - "51-43-33-31-21-S"\n')
    assert append_entries(path, [entry]).added
    after = path.read_bytes()
    assert after.startswith(before) and b"id: x" in after
