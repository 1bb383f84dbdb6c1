"""A detector step from outside the package (tests/fixtures/outside_step: a module that
registers ``aka-names`` and a ``.dist-info`` naming it under the entry-point group
``mmbdeid.detectors``) runs where it is named: in scrub on the command line, with the local
engine's workers and with Dask's, and in the Python API; the contract it implements is
:class:`mmbdeid.detect.base.Detector`. The texts are fictional."""
import json
import os
import subprocess
import sys

import pytest

import mmbdeid
from mmbdeid.detect import registry
from mmbdeid.detect.base import KEEP, Completer, Detector
from mmbdeid.errors import MmbdeidTypeError, MmbdeidValueError

from paths import OUTSIDE_STEP, REPO

TEXT = "Thanks to Kay, aka Sunflower, my TSH is fine now"
POSTS = [{"id": "p%d" % i, "thread": "t%d" % (i // 3), "author": "member%d" % (i % 4),
          "text": "Round %d done. Say hi to my sister, aka Marigold, for me." % i}
         for i in range(12)]
WITH_OUTSIDE = ",".join([*registry.STEP_NAMES, "aka-names"])


@pytest.fixture
def registry_restored(monkeypatch):
    """The registry, the entry points read and the imported modules as they were: a
    registration lasts for the process, and this one must not reach other tests."""
    steps, by_name = list(registry.STEPS), dict(registry.BY_NAME)
    monkeypatch.syspath_prepend(OUTSIDE_STEP)
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    yield
    registry.STEPS[:] = steps
    registry.BY_NAME.clear()
    registry.BY_NAME.update(by_name)
    sys.modules.pop("outside_step", None)


def _dump(tmp_path):
    path = tmp_path / "dump.jsonl"
    path.write_text("".join(json.dumps(post) + "\n" for post in POSTS), encoding="utf-8")
    return str(path)


def _texts(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line)["text"] for line in handle]


def _scrub_in_a_process(tmp_path, *options):
    out = tmp_path / ("out%d.jsonl" % len(list(tmp_path.iterdir())))
    done = subprocess.run(
        [sys.executable, "-m", "mmbdeid", "scrub", _dump(tmp_path), "-o", str(out), "-q",
         *options], env=dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, OUTSIDE_STEP])),
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return _texts(out)


@pytest.mark.parametrize("engine", [[], ["--jobs", "2"]], ids=["one process", "workers"])
def test_the_cli_runs_the_outside_step_where_named(tmp_path, engine):
    named = _scrub_in_a_process(tmp_path, "--steps", WITH_OUTSIDE, *engine)
    assert all("aka [NAME]," in text and "Marigold" not in text for text in named)
    unnamed = _scrub_in_a_process(tmp_path, *engine)    # installed, not named: not run
    assert all("aka Marigold," in text for text in unnamed)


def test_the_steps_command_lists_an_installed_step():
    done = subprocess.run([sys.executable, "-m", "mmbdeid", "steps"],
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join([REPO, OUTSIDE_STEP])),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    names = [line.split()[0] for line in done.stdout.splitlines()]
    assert names.index("aka-names") == names.index("allow") - 1


def test_the_api_runs_the_outside_step_where_named(registry_restored):
    import outside_step
    spans = mmbdeid.analyze(TEXT, steps=[*registry.STEP_NAMES, "aka-names"])
    assert [(TEXT[s.start:s.end], s.source) for s in spans if s.source == "aka"] == [
        ("Sunflower", "aka")]
    assert "Sunflower" in mmbdeid.scrub(TEXT)           # not a default step
    assert registry.BY_NAME["aka-names"].detector is outside_step.AkaNameDetector


def test_an_entry_point_registers_the_step_when_it_is_first_named(registry_restored):
    assert "aka-names" not in registry.BY_NAME
    assert registry.step_names(["aka-names"]) == ("aka-names",)
    assert "outside_step" in sys.modules


@pytest.mark.slow
def test_dask_workers_run_the_outside_step(tmp_path, monkeypatch, registry_restored):
    distributed = pytest.importorskip("distributed")
    from mmbdeid.cli import main
    # The workers find the step's module and its entry point on their path, as they would
    # find a package installed in their environment.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([REPO, OUTSIDE_STEP]))
    out = tmp_path / "dask.jsonl"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert main(["scrub", _dump(tmp_path), "-o", str(out), "-q", "--steps", WITH_OUTSIDE,
                     "--engine", "dask", "--scheduler", cluster.scheduler_address]) == 0
        with distributed.Client(cluster.scheduler_address) as client:
            on_worker = client.run(lambda: "outside_step" in sys.modules)
    assert list(on_worker.values()) == [True]
    assert all("aka [NAME]," in text for text in _texts(out))


class _Keeps(Detector):
    effect = KEEP

    def detect(self, document):
        return []


@pytest.mark.parametrize("name, options, error", [
    ("Aka Names", {}, MmbdeidValueError),
    ("crf", {}, MmbdeidValueError),
    ("kept-words", {"stage": "middle"}, MmbdeidValueError),
    ("kept-words", {"before": "no-such-step"}, MmbdeidValueError),
])
def test_register_detector_refuses_a_bad_name_stage_or_place(registry_restored, name,
                                                             options, error):
    with pytest.raises(error):
        registry.register_detector(name, **options)(_Keeps)


def test_register_detector_refuses_a_class_that_is_no_detector(registry_restored):
    with pytest.raises(MmbdeidTypeError):
        registry.register_detector("kept-words")(dict)


def test_a_registered_default_step_joins_the_chain_of_unnamed_steps(registry_restored):
    mmbdeid.register_detector("kept-words", stage=registry.FILTER, before="placeholders",
                              default=True)(_Keeps)
    assert registry.STEP_NAMES[-2:] == ("kept-words", "placeholders")
    assert "kept-words" in registry.step_names()
    assert registry.BY_NAME["kept-words"].asked_by_rules


def test_the_contract_declares_every_hook_with_a_default():
    keeper = _Keeps()
    assert keeper.prefetch([]) is None and keeper.prepare([]) is None
    assert keeper.with_stats(object()) is None
    with pytest.raises(TypeError):
        Detector()                          # detect is abstract
    with pytest.raises(TypeError):
        type("NoComplete", (Completer,), {})()


def test_step_properties_live_on_the_steps():
    shipped = [step for step in registry.STEPS
               if step.detector.__module__.startswith("mmbdeid.")]
    assert {step.name for step in shipped if step.per_input} == {
        "crf", "usernames", "consistency", "code-text"}
    assert [step.name for step in shipped if not step.asked_by_rules] == ["allow"]
    assert all(step.default for step in shipped)
