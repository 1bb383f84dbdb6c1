"""The help of each command: its description and examples (shown by 'mmbdeid COMMAND
--help'), and the help texts several options share."""
import argparse

GOLD_STATS_HELP = ("corpus statistics file: read if it exists, else built from the gold "
                   "file and saved (default: built in memory)")
# Tables and plots are written in the format their extension names (files/outputs.py).
TABLE_HELP = "CSV, TSV or JSON Lines by the extension (.csv, .tsv, .jsonl; each also .gz)"
PLOT_HELP = ("in the format its extension names (.png, .pdf, .svg, .eps, .ps; .jpg, .tif "
             "with Pillow; none: PNG; needs the [plot] extra: matplotlib)")
DETECTING_OUTPUTS = {
    "link": "the person map to write (a text file, e.g. .map): each person's names and "
            "usernames, to edit and pass to 'scrub --map'",
    "annotate": "the annotation page to write (one self-contained HTML file, private: "
                "it holds the posts)",
    "review": "the review list to write (string, count, mean_prob, label, example, "
              "post_ids), as " + TABLE_HELP,
}

_ESTIMATE_EXAMPLES = [
    "mmbdeid estimate draw scrubbed.jsonl -o sample.jsonl --upper-bound 0.01 --seed 7",
    "mmbdeid estimate draw scrubbed.jsonl -o sample.jsonl --margin 0.02 --expected 0.05 "
    "--by thread",
    "mmbdeid estimate report marked.jsonl --draw-info sample.meta.json -o report.md "
    "--json report.json",
]

# Each command's description and examples, shown by 'mmbdeid COMMAND --help'.
DESCRIPTIONS = {
    "train": ("Train a name tagger (a CRF) on hand-tagged posts or CoNLL files and save it "
              "as one model file. With --dev, the threshold is the highest whose recall on "
              "the dev set reaches --target-recall, its dev recall, precision, specificity "
              "and leaking posts printed; one below 0.005 is refused (exit 2, no model "
              "written) unless --force. Without --dev, 0.05. The model is written "
              "private (mode 0600): its token features hold words of the training posts "
              "verbatim, names and usernames among them, so share it like the posts.",
              ["mmbdeid train tagged.jsonl -o board.mmbdeid --stats dump.stats",
               "mmbdeid train train.jsonl --dev dev.jsonl --target-recall 0.95 -o board.mmbdeid",
               "mmbdeid train tagged.jsonl --base default -o board.mmbdeid"]),
    "scrub": ("Remove names, usernames, e-mail addresses, URLs and phone numbers from every "
              "post of a dump. Every record comes out, in order, with all its fields; only "
              "the text changes (and the author field, in every mode but placeholder). "
              "Bad input stops the run with file:line and exit status 2, "
              "and no output is written (or, with --skip-bad, goes to a reject file).",
              ["mmbdeid scrub dump.jsonl -o scrubbed.jsonl --spans removed.jsonl",
               "mmbdeid scrub dump.csv.gz -o scrubbed.parquet --text-field body --id-field post_id",
               "zcat dump.jsonl.gz | mmbdeid scrub - -o - --mode surrogate > scrubbed.jsonl",
               "mmbdeid scrub dump.jsonl -o hashed.jsonl --mode hash --hash-key-file hash.key"]),
    "link": ("Detect the names and usernames of a dump and link them to people: who is "
             "called what across posts and threads. Edit the map, then scrub with --map.",
             ["mmbdeid link dump.jsonl -o people.map --scope board",
              "mmbdeid scrub dump.jsonl -o scrubbed.jsonl --mode pseudonym --map people.map"]),
    "review": ("List every distinct string scrub removes (in --mode placeholder, pseudonym "
               "or surrogate), most frequent first, with "
               "its count, mean probability, label, an example in context and the posts it "
               "is in; with --html, also a page showing each post with its removals "
               "highlighted, and what may be left (near-misses, posts with no removal but "
               "a capitalised word not in the dictionary), from which the strings you tick "
               "download as an allow and a deny list.",
               ["mmbdeid review dump.jsonl -o review.csv --html review.html",
                "mmbdeid scrub dump.jsonl -o scrubbed.jsonl --allow keep.txt"]),
    "annotate": ("Write one self-contained HTML page on which to tag the names in a sample "
                 "of posts by hand: each post with the spans scrub would remove (the same "
                 "chain and options), or, for an annotated POSTS, its own spans. Select text "
                 "to add a span, click one to relabel (keys 1-9) or remove it (Delete); work "
                 "is saved in the browser; Export downloads annotated JSON Lines for train, "
                 "evaluate, sweep and split.",
                 ["mmbdeid annotate sample.jsonl -o tag.html",
                  "mmbdeid annotate tagged.jsonl -o tag.html --labels NAME,USER",
                  "mmbdeid train sample.annotated.jsonl -o board.mmbdeid"]),
    "audit": ("Look through scrubbed output for usernames, authors' names and person-map "
              "names that are still there, and (--spans) for the spans the scrub removed; "
              "list the model's near-misses in it; end with what was searched and what "
              "was not. Exit status 1 when a leak is found, else 0.",
              ["mmbdeid audit scrubbed.jsonl --original dump.jsonl --map people.map "
               "--spans scrubbed.spans.jsonl"]),
    "evaluate": ("Per-token name metrics of a model on hand-tagged gold data at one "
                 "threshold: precision, recall, F1, specificity and the posts that still "
                 "hold a name. CoNLL files are scored as the text a person would have typed. "
                 "With --people, persons instead: the ids a person-mode scrub gives against "
                 "the gold 'person' of each span.",
                 ["mmbdeid evaluate dev.jsonl --model board.mmbdeid --errors errors.csv",
                  "mmbdeid evaluate emerging.dev.conll --threshold 0.02",
                  "mmbdeid evaluate people.annotated.jsonl --people --json identity.json"]),
    "sweep": ("The metrics of 'evaluate' at every threshold from 0.5 down to 0.005, to "
              "choose the operating point.",
              ["mmbdeid sweep dev.jsonl --model board.mmbdeid -o curve.csv --plot curve.png"]),
    "crossval": ("K-fold cross-validation on hand-tagged data, whole threads in one fold: a "
                 "model trained on the other folds scores each fold. Prints the pooled "
                 "table and each fold's figures with their spread.",
                 ["mmbdeid crossval tagged.jsonl --folds 5 -o cv.csv --plot cv.png"]),
    "split": ("Split hand-tagged posts into a training and a development file. A thread "
              "never spans both (posts of a thread share names), so dev measures the model "
              "on threads it has not seen. Posts without a thread are split one by one.",
              ["mmbdeid split tagged.jsonl -o train.jsonl --dev dev.jsonl --dev-share 0.2 "
               "--seed 1"]),
    "convert": ("Convert hand-tagged posts between annotated JSON Lines (what train, "
                "evaluate, sweep and split read), a Label Studio JSON export, a doccano "
                "JSONL export and CoNLL. Every field of a post goes with it (Label Studio: "
                "in 'data'; doccano: beside 'text'); offsets are converted (Label Studio: "
                "UTF-16 code units; doccano and mmbdeid: code points). PERSON and PER "
                "become NAME unless --label-map says otherwise. CoNLL is written with "
                "mmbdeid's tokenizer and BIO tags.",
                ["mmbdeid convert tagged.jsonl -o tasks.json",
                 "mmbdeid convert export.json -o tagged.jsonl --label-map labels.json",
                 "mmbdeid convert doccano.jsonl --from doccano -o tagged.conll"]),
    "sample": ("Choose posts of a dump to hand-tag: those the model is least sure about "
               "(tokens near the threshold, capitalised words no step decided), a "
               "random sample (to measure without bias), or a sample stratified by board "
               "and spread over threads. The chosen posts keep every field and the "
               "dump's order; the same seed gives the same sample.",
               ["mmbdeid sample dump.jsonl -n 300 --by uncertainty -o to_tag.jsonl",
                "mmbdeid sample dump.jsonl -n 300 --by random --seed 7 -o measure.jsonl"]),
    "steps": ("List the steps of the detector chain in the order they run: each step's "
              "name (for --steps and --no-step), its stage (model, filter, rule), what its "
              "spans do (remove, keep, raise), the kinds it finds (a step of kinds not "
              "chosen with --kinds does not run; '-': it always runs) and what it finds. "
              "'evaluate --chain model' measures the model and filter stages.",
              ["mmbdeid steps",
               "mmbdeid scrub dump.jsonl -o scrubbed.jsonl --no-step drugs --no-step sign-offs",
               "mmbdeid evaluate dev.jsonl --chain scrub --steps crf,not-names,completion"]),
    "stats": ("Build the corpus statistics of a dump once (token counts per board, thread "
              "and user; capitalisation; paragraph borders), for train, scrub, link and "
              "review to share.",
              ["mmbdeid stats dump.jsonl -o dump.stats",
               "mmbdeid scrub dump.jsonl -o scrubbed.jsonl --stats dump.stats"]),
    "estimate": ("Estimate the share of a scrubbed dump's posts that still name someone, "
                 "with its 95% interval, for an ethics board: 'draw' writes a seeded random "
                 "sample (stratified by board or thread) to mark, a person marks every "
                 "name left ('mmbdeid annotate', or by hand: a span in each post's "
                 "'spans'), and 'report' gives the leak share with its exact "
                 "(Clopper-Pearson) and Wilson intervals and the one-sided upper bound, "
                 "as Markdown and JSON.",
                 _ESTIMATE_EXAMPLES),
    "estimate draw": ("Draw a seeded random sample of a scrubbed dump's posts to mark: "
                      "stratified by board or thread with proportional allocation (each "
                      "post has the same chance), its size given (--n), from a target "
                      "margin (--margin) or from a target upper bound (--upper-bound). "
                      "The drawn posts keep all their fields; the settings, the dump's "
                      "SHA-256 and the drawn ids go to SAMPLE.meta.json beside the "
                      "sample.", _ESTIMATE_EXAMPLES[:2]),
    "estimate report": ("The leak share of a marked sample (annotated JSON Lines: a post "
                        "leaks when it has a span) with its 95% intervals "
                        "(Clopper-Pearson, Wilson), the one-sided upper bound and the "
                        "posts a target bound needs, as a Markdown report (and JSON) that "
                        "names the dump, the draw and the marks by post id.",
                        _ESTIMATE_EXAMPLES[2:]),
}


def describe(commands, prefix: str = "") -> None:
    """Give every command (and subcommand) its description and examples."""
    for name, parser in commands.choices.items():
        description, examples = DESCRIPTIONS[prefix + name]
        parser.description = description
        parser.epilog = "examples:\n" + "\n".join("  " + e for e in examples)
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                describe(action, prefix + name + " ")
