"""The scratch file of pass 3 (``files.diskerrors.scratch_text_file``): a file in TMPDIR
that never shows a name there, so no stop signal can leave it behind, and whose write
errors name TMPDIR."""
import os
import tempfile

import pytest

from mmbdeid.files import diskerrors


@pytest.fixture
def private_tmpdir(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("with_o_tmpfile", [True, False])
def test_the_scratch_file_has_no_name_while_it_is_used(private_tmpdir, monkeypatch,
                                                       with_o_tmpfile):
    if not with_o_tmpfile:
        monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    elif not hasattr(os, "O_TMPFILE"):
        pytest.skip("no O_TMPFILE here")
    with diskerrors.scratch_text_file() as scratch:
        assert os.listdir(private_tmpdir) == []
        scratch.write("one line\n")
        scratch.seek(0)
        assert scratch.read() == "one line\n"
    assert os.listdir(private_tmpdir) == []


def test_a_missing_tmpdir_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "gone"))
    with pytest.raises(FileNotFoundError):
        diskerrors.scratch_text_file()
