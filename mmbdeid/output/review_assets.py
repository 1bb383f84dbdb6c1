"""The review page's inline style and script (:mod:`mmbdeid.output.review_page`), kept
apart from the HTML they serve. The page allows them by hash only: any change here
changes the Content-Security-Policy it writes."""

# Bands are told apart by the border of a highlight as well as by its tag's text.
STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;
max-width:62em;padding:0 1em;color:#111;line-height:1.5}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em}h3{font-size:1em;margin:0 0 .3em}
.note{color:#555;font-size:.9em}
#filters{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:.3em 0;
z-index:1;display:flex;flex-wrap:wrap;align-items:center;gap:.3em .6em}
fieldset{border:1px solid #bbb;margin:0;padding:.1em .5em .3em}
fieldset label{margin-right:.8em;white-space:nowrap}
.chip,.band{padding:0 .3em;border-radius:3px}
.band[data-band="low"]{border:2px dotted #333}.band[data-band="mid"]{border:2px dashed #333}
.band[data-band="high"]{border:2px solid #333}
section{scroll-margin-top:8em}
article.post{border:1px solid #ddd;border-radius:4px;padding:.5em .8em;margin:.6em 0;
scroll-margin-top:10em}
article.post.hidden{display:none}
article.post:target,article.post.hidden:target{display:block;outline:3px solid #1a5fb4}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
mark.rm{padding:0 .15em;border-radius:3px;color:#000}
mark.rm[data-band="low"]{border:2px dotted #333}mark.rm[data-band="mid"]{border:2px dashed #333}
mark.rm[data-band="high"]{border:2px solid #333}
mark.rm .tag{font-size:.7em;font-weight:bold;margin-left:.3em;vertical-align:super;
white-space:nowrap}
mark.rm.off{background:none!important;border:none;padding:0}
mark.rm.off .tag{display:none}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:.25em .4em;vertical-align:top;text-align:left}
td.c,td.p{text-align:right}
tr.hidden{display:none}
td ul{margin:0;padding-left:1.1em}
td mark{background:#fff3b0}
.pid{color:#555;font-size:.85em}
.meta{color:#444;font-size:.85em;margin:0 0 .3em}
mark.near{background:none;border-bottom:2px dotted #b00;padding:0}
mark.word{background:#ffe0e0;padding:0 .1em;border-radius:3px}
.words{font-size:.9em;margin:.3em 0 0}.words label{margin-right:.8em;white-space:nowrap}
#export button{margin-right:.4em}
details summary{cursor:pointer;margin:.5em 0}
"""

SCRIPT = """
(function () {
  var form = document.getElementById("filters");
  function ticked(name) {
    var on = {};
    form.querySelectorAll("input[name='" + name + "']").forEach(function (box) {
      on[box.value] = box.checked;
    });
    return on;
  }
  function apply() {
    var labels = ticked("label"), bands = ticked("band"), shown = 0;
    function wanted(element) {
      return labels[element.dataset.label] === true && bands[element.dataset.band] === true;
    }
    document.querySelectorAll("mark.rm").forEach(function (mark) {
      mark.classList.toggle("off", !wanted(mark));
    });
    var posts = document.querySelectorAll("#posts article.post");
    posts.forEach(function (post) {
      var any = post.querySelector("mark.rm:not(.off)") !== null;
      post.classList.toggle("hidden", !any);
      if (any) { shown += 1; }
    });
    document.querySelectorAll("#strings tbody tr").forEach(function (row) {
      row.classList.toggle("hidden", !wanted(row));
    });
    document.getElementById("shown").textContent = shown + " of " + posts.length + " posts shown";
  }
  form.addEventListener("change", apply);
  apply();

  // The lists: the ticked strings, each once, whitespace as load_terms reads it; a
  // plain-text term list downloaded from a Blob (no server). The tokeniser makes "#" a
  // token of its own, so no term begins with one (which a list would read as a comment).
  function terms(list) {
    var seen = {}, found = [];
    document.querySelectorAll("input[name='" + list + "']:checked").forEach(function (box) {
      var term = box.value.trim().split(/\\s+/).join(" ");
      if (term && !seen[term]) { seen[term] = true; found.push(term); }
    });
    return found;
  }
  var buttons = document.querySelectorAll("#export button");
  function count() {
    buttons.forEach(function (button) {
      var n = terms(button.dataset.list).length;
      button.querySelector(".count").textContent = n;
      button.disabled = n === 0;
    });
  }
  document.addEventListener("change", function (event) {
    var name = event.target.name;
    if (name === "allow" || name === "deny") { count(); }
  });
  buttons.forEach(function (button) {
    button.addEventListener("click", function () {
      var list = button.dataset.list, found = terms(list);
      var head = list === "allow"
        ? "# never removed: strings ticked on the mmbdeid review page (scrub --allow)\\n"
        : "# always removed: strings ticked on the mmbdeid review page (scrub --deny)\\n";
      var link = document.getElementById("download");
      if (link.href) { URL.revokeObjectURL(link.href); }
      link.href = URL.createObjectURL(new Blob([head + found.join("\\n") + "\\n"],
                                               {type: "text/plain;charset=utf-8"}));
      link.download = list + ".txt";
      link.click();
    });
  });
  count();
})();
"""
