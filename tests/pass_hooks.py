"""A hook into the passes of a run, to change its input at a chosen moment."""


def hook_progress(monkeypatch, label, moment, change):
    """Run ``change()`` once, when the pass whose progress label starts with ``label``
    starts (before it reads), has read its first chunk (``update``) or ends (after it
    read everything)."""
    from mmbdeid.jobs import first_pass, passes, person_pass, thread_names
    fired = []

    def fire(progress_label):
        if progress_label.startswith(label) and not fired:
            fired.append(progress_label)
            change()

    class Hooked(passes.Progress):
        def __init__(self, progress_label, *args, **kwargs):
            super().__init__(progress_label, *args, **kwargs)
            if moment == "start":
                fire(progress_label)

        def update(self, *args, **kwargs):
            if moment == "update":
                fire(self.label)
            super().update(*args, **kwargs)

        def close(self):
            if moment == "end":
                fire(self.label)
            super().close()
    for module in (first_pass, passes, person_pass, thread_names):   # passes 1, 2 and 3
        monkeypatch.setattr(module, "Progress", Hooked)
    return fired
