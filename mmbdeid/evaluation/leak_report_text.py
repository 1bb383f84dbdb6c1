"""The leak report (:func:`.leak_report.leak_report`) as Markdown, for an ethics
application to cite, and its headline as one line for the terminal."""
from typing import List

# At most this many leaking post ids and strata are listed in the Markdown (all are in
# the JSON).
LISTED_IDS = 50
LISTED_STRATA = 20

METHOD = (
    "A post leaks when the person who read it marked at least one span in it (a name or "
    "another identifier the scrub left). The leak share is the leaking posts over the "
    "marked posts. The two-sided 95% intervals are Clopper-Pearson's (exact: the binomial "
    "tails inverted, never narrower than 95% coverage) and Wilson's (the score interval: "
    "closer to 95% on average, not guaranteed). The one-sided 95% upper bound is "
    "Clopper-Pearson's: the leak share at which as few leaks as were found have a 5% "
    "chance, so a higher share is ruled out at 95% confidence; with no leak in n "
    "posts it is 1 - 0.05^(1/n), the exact form of the rule of three (3/n). The posts "
    "needed for a target bound are the fewest for which the leaks found give a bound "
    "strictly below the target, if no further post leaks.")


def percent(share: float) -> str:
    """``0.33%``; below 0.1%, two significant digits (``0.0085%``), not ``0.01%``."""
    value = 100 * share
    return "%.2f%%" % value if value == 0 or value >= 0.1 else "%.2g%%" % value


def headline(report: dict) -> str:
    """``0 of 300 posts leak (0.00%): below 1.00% at 95% confidence``."""
    estimate = report["estimate"]
    return ("%d of %d posts leak (%s): the leak share is below %s at 95%% confidence "
            "(one-sided Clopper-Pearson)" % (estimate["leaks"], estimate["posts"],
                                             percent(estimate["share"]),
                                             percent(estimate["upper_bound"])))


def target_line(report: dict) -> str:
    estimate = report["estimate"]
    target, more = percent(estimate["target"]), estimate["more_posts_for_target"]
    if more == 0:
        return "The bound is below the target of %s already." % target
    leaks = estimate["leaks"]
    return ("For a bound below %s: %d more posts with no leak (%d in all, with the %d "
            "leak%s found)." % (target, more, estimate["posts_for_target"], leaks,
                                "" if leaks == 1 else "s"))


def markdown(report: dict) -> str:
    lines: List[str] = ["# " + report["title"], "", "**%s.**" % headline(report), ""]
    lines += _data_section(report["data"]) + _sample_section(report)
    lines += _marks_section(report) + _estimate_section(report)
    lines += ["## Method", "", METHOD, "",
              "Population: %s." % report["population"], "",
              "Made by mmbdeid %s on %s." % (report["mmbdeid_version"], report["created"]),
              ""]
    return "\n".join(lines)


def _data_section(data) -> List[str]:
    lines = ["## Data", ""]
    if data is None:
        return lines + ["The draw's settings were not given (`--draw-info`): the scrubbed "
                        "dump is not identified.", ""]
    return lines + ["| | |", "|---|---|", "| scrubbed dump | %s |" % _code(data["file"]),
                    "| records | %d |" % data["records"],
                    "| SHA-256 | `%s` |" % data["sha256"], ""]


def _sample_section(report: dict) -> List[str]:
    sample, leak = report["sample"], report["leak"]
    rows = [("marked file", _code(sample["marked_file"])),
            ("its SHA-256", "`%s`" % sample["marked_sha256"]),
            ("posts marked", str(sample["posts"]))]
    if "seed" in sample:
        size = sample["size"] or {}
        rule = size.get("rule")
        how = {"n": "given", "margin": "for a margin of ±%s" % _share(size.get("margin")),
               "upper-bound": "for an upper bound below %s with no leak"
                              % _share(size.get("upper_bound"))}.get(rule, str(rule))
        if rule == "margin":
            how += " at a share of %s" % _share(size.get("expected_share") or 0.5)
        rows += [("drawn by", "`mmbdeid estimate draw` on %s" % sample["draw_created"]),
                 ("sample file", _code(sample["sample_file"])),
                 ("seed", str(sample["seed"])),
                 ("strata", "by %s: %s" % (sample["by"], sample["strata"])
                  if sample["by"] != "none" else "none (simple random sample)"),
                 ("allocation", str(sample["allocation"])),
                 ("sample size", "%d requested (%s)" % (size.get("requested", 0), how))]
    rows.append(("counted as a leak", "%s (labels: %s)" % (
        leak["definition"], leak["labels"] if leak["labels"] == "any"
        else ", ".join(leak["labels"]))))
    lines = ["## Sample", "", "| | |", "|---|---|"]
    lines += ["| %s | %s |" % (name, value) for name, value in rows] + [""]
    strata = sample.get("by_stratum") or []
    if sample.get("by") not in (None, "none") and 1 < len(strata) <= LISTED_STRATA:
        lines += ["| %s | posts | drawn |" % sample["by"], "|---|---:|---:|"]
        lines += ["| %s | %d | %d |" % (_code(row["stratum"]) if row["stratum"] else
                                         "(none)", row["posts"], row["drawn"])
                  for row in strata] + [""]
    return lines


def _marks_section(report: dict) -> List[str]:
    marks = report["marks"]
    ids = marks["leaking_ids"]
    listed = ", ".join(_code(i) for i in ids[:LISTED_IDS])
    if len(ids) > LISTED_IDS:
        listed += ", ... (%d in all: the JSON report lists them)" % len(ids)
    lines = ["## Marks", "", "Leaking posts: %d%s" % (len(ids), ": " + listed if ids else "."),
             ""]
    if marks["spans_on_placeholders"]:
        lines += ["Not counted: %d marked spans over nothing but a placeholder or mask the "
                  "scrub wrote (`[NAME]`, `[U12]`, `*****`)." % marks["spans_on_placeholders"],
                  ""]
    if marks["spans_by_label"]:
        lines += ["| label | spans | posts |", "|---|---:|---:|"]
        lines += ["| %s | %d | %d |" % (label, count, marks["posts_by_label"][label])
                  for label, count in marks["spans_by_label"].items()]
        lines.append("")
    return lines


def _estimate_section(report: dict) -> List[str]:
    estimate = report["estimate"]
    exact, score = estimate["clopper_pearson"], estimate["wilson"]
    return ["## Estimate", "",
            "| | leak share | 95% interval |", "|---|---:|---|",
            "| Clopper-Pearson (exact) | %s | %s to %s |" % (
                percent(estimate["share"]), percent(exact[0]), percent(exact[1])),
            "| Wilson | %s | %s to %s |" % (
                percent(estimate["share"]), percent(score[0]), percent(score[1])),
            "| one-sided upper bound (Clopper-Pearson) | | below %s |"
            % percent(estimate["upper_bound"]),
            "", target_line(report), ""]


def _share(value) -> str:
    return "?" if value is None else percent(value)


def _code(text) -> str:
    """``text`` as a Markdown code span (a name with a backtick keeps it)."""
    text = str(text)
    text = text.replace("|", "\\|").replace("\n", " ")
    return "`` %s ``" % text if "`" in text else "`%s`" % text
