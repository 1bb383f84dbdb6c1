"""The annotation page's inline style and script (:mod:`mmbdeid.output.annotate_page`).
The page allows them by hash only: any change here changes the Content-Security-Policy
it writes.

JavaScript strings are UTF-16; the spans are in code points, as Python counts. Each post
keeps a map between the two (``u16[cp]``: where code point ``cp`` starts in the string;
``cp16[i]``: the code point a UTF-16 index falls in), and every offset crosses it once:
from the DOM when text is selected, to the DOM when spans are drawn."""

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;
max-width:62em;padding:0 1em 4em;color:#111;line-height:1.55}
h1{font-size:1.4em;margin:.6em 0 .2em}h2{font-size:1.1em}
.note{color:#555;font-size:.9em}
#toolbar{position:sticky;top:0;background:#fff;border-bottom:1px solid #bbb;padding:.4em 0;
z-index:2;display:flex;flex-wrap:wrap;align-items:center;gap:.35em .5em}
#toolbar button{font:inherit;font-size:.9em;padding:.15em .5em;border:1px solid #777;
border-radius:4px;cursor:pointer;background:#f4f4f4}
#toolbar button.label{color:#000}
#toolbar button.label.current{outline:3px solid #1a5fb4;outline-offset:1px}
#toolbar #export{background:#1a5fb4;color:#fff;border-color:#1a5fb4;font-weight:bold}
#progress{margin:0 .3em;font-size:.9em}
kbd{font-family:ui-monospace,monospace;font-size:.85em;border:1px solid #999;
border-radius:3px;padding:0 .25em;background:#fff;color:#000}
#help{position:fixed;right:1em;top:4em;max-width:30em;background:#fff;border:2px solid #1a5fb4;
border-radius:6px;padding:.2em 1em .6em;z-index:3;box-shadow:0 4px 18px rgba(0,0,0,.25)}
#help th{text-align:left;white-space:nowrap;padding-right:1em;vertical-align:top}
article.post{border:1px solid #ccc;border-radius:5px;padding:.4em .8em .6em;margin:.7em 0;
scroll-margin-top:5em}
article.post.current{border-color:#1a5fb4;box-shadow:0 0 0 2px #1a5fb4}
article.post.done{background:#f3f8f3}
article.post h3{font-size:.95em;margin:0 0 .3em;display:flex;gap:.8em;align-items:baseline}
article.post h3 .meta{color:#555;font-weight:normal;font-size:.9em}
article.post h3 label{margin-left:auto;font-weight:normal;white-space:nowrap}
.text{white-space:pre-wrap;overflow-wrap:anywhere;font-size:1.05em}
mark.span{padding:.05em .1em;border-radius:3px;color:#000;cursor:pointer;
border:1px solid #555}
mark.span::after{content:attr(data-tag);font-size:.68em;font-weight:bold;margin-left:.25em;
vertical-align:super;white-space:nowrap;user-select:none}
mark.span.selected{outline:3px solid #c01c28;outline-offset:1px}
"""

SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var labels = data.labels, posts = data.posts, field = data.spansField;
  var storeKey = "mmbdeid-annotate/" + document.body.dataset.key;
  var main = document.getElementById("posts");
  var state = {spans: [], done: []};
  var current = 0, selected = null, label = labels[0];
  var segmenter = window.Intl && Intl.Segmenter ? new Intl.Segmenter(undefined,
    {granularity: "grapheme"}) : null;

  // Per post: its code points and the maps between code points and UTF-16 units.
  posts.forEach(function (post) {
    var cps = Array.from(post.text), u16 = [0], cp16 = [];
    cps.forEach(function (c, i) {
      for (var k = 0; k < c.length; k += 1) { cp16.push(i); }
      u16.push(u16[i] + c.length);
    });
    cp16.push(cps.length);
    post.cps = cps; post.u16 = u16; post.cp16 = cp16;
  });

  function copySpans(list) {
    return list.map(function (s) {
      var span = {start: s.start, end: s.end, label: s.label};
      if (s.person) { span.person = s.person; }
      return span;
    });
  }
  function fresh() {
    state = {spans: posts.map(function (p) { return copySpans(p.spans); }),
             done: posts.map(function () { return false; })};
  }
  function valid(saved) {
    if (!saved || !Array.isArray(saved.spans) || !Array.isArray(saved.done) ||
        saved.spans.length !== posts.length || saved.done.length !== posts.length) {
      return false;
    }
    return saved.spans.every(function (list, i) {
      return Array.isArray(list) && list.every(function (s) {
        return Number.isInteger(s.start) && Number.isInteger(s.end) && 0 <= s.start &&
          s.start < s.end && s.end <= posts[i].cps.length && typeof s.label === "string";
      });
    });
  }
  var savedNote = document.getElementById("saved");
  function save() {
    try {
      localStorage.setItem(storeKey, JSON.stringify(state));
      savedNote.textContent = "saved in this browser";
    } catch (error) {
      savedNote.textContent = "not saved (" + error.name + "): export before closing";
    }
    progress();
  }
  function load() {
    fresh();
    try {
      var saved = JSON.parse(localStorage.getItem(storeKey) || "null");
      if (valid(saved)) {
        state = {spans: saved.spans.map(copySpans), done: saved.done.map(Boolean)};
        savedNote.textContent = "restored from this browser";
      }
    } catch (error) {
      savedNote.textContent = "not saved (" + error.name + "): export before closing";
    }
  }

  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (k) { node.setAttribute(k, attributes[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function tagOf(span) { return span.label + (span.person ? " \\u00b7 " + span.person : ""); }

  function drawText(i) {
    var post = posts[i], box = post.box, at = 0;
    box.textContent = "";
    state.spans[i].forEach(function (span, k) {
      var from = post.u16[span.start], to = post.u16[span.end];
      if (from > at) { box.appendChild(document.createTextNode(post.text.slice(at, from))); }
      var mark = el("mark", {"class": "span", "data-label": span.label,
                             "data-tag": tagOf(span), "data-index": String(k)},
                    post.text.slice(from, to));
      if (span.person) { mark.dataset.person = span.person; }
      if (selected && selected.post === i && selected.index === k) {
        mark.classList.add("selected");
      }
      box.appendChild(mark);
      at = to;
    });
    if (at < post.text.length) { box.appendChild(document.createTextNode(post.text.slice(at))); }
  }
  function drawDone(i) {
    posts[i].article.classList.toggle("done", state.done[i]);
    posts[i].doneBox.checked = state.done[i];
  }
  function draw() {
    main.textContent = "";
    posts.forEach(function (post, i) {
      var article = el("article", {"class": "post", "data-post": String(i)});
      var head = el("h3");
      head.appendChild(el("span", {}, "#" + (i + 1) + " post "));
      head.lastChild.appendChild(el("code", {}, post.id));
      var meta = ["author", "thread", "board"].filter(function (k) { return post.meta[k]; })
        .map(function (k) { return k + " " + post.meta[k]; }).join(" \\u00b7 ");
      if (meta) { head.appendChild(el("span", {"class": "meta"}, meta)); }
      var done = el("label"), box = el("input", {type: "checkbox", "class": "done"});
      done.appendChild(box); done.appendChild(document.createTextNode(" done"));
      head.appendChild(done);
      article.appendChild(head);
      post.box = el("div", {"class": "text"});
      article.appendChild(post.box);
      post.article = article; post.doneBox = box;
      box.addEventListener("change", function () { state.done[i] = box.checked; drawDone(i); save(); });
      article.addEventListener("mousedown", function () { setCurrent(i, false); });
      main.appendChild(article);
      drawText(i); drawDone(i);
    });
    setCurrent(current, false);
    progress();
  }
  function progress() {
    var done = state.done.filter(Boolean).length;
    var spans = state.spans.reduce(function (n, list) { return n + list.length; }, 0);
    document.getElementById("progress").textContent = done + " of " + posts.length +
      " posts done \\u00b7 " + spans + " spans";
  }
  function setCurrent(i, scroll) {
    if (i < 0 || i >= posts.length) { return; }
    if (posts[current]) { posts[current].article.classList.remove("current"); }
    current = i;
    posts[i].article.classList.add("current");
    if (scroll) { posts[i].article.scrollIntoView({block: "nearest"}); }
  }
  function select(i, k) {
    var before = selected;
    selected = k === null ? null : {post: i, index: k};
    if (before && before.post !== i) { drawText(before.post); }
    if (i !== null) { drawText(i); setCurrent(i, false); }
  }
  function setLabel(name) {
    label = name;
    document.querySelectorAll("#toolbar button.label").forEach(function (b) {
      b.classList.toggle("current", b.dataset.label === name);
    });
  }

  // Where a DOM position falls in a post's text, in UTF-16 units.
  function unitsBefore(post, node, offset) {
    var range = document.createRange();
    range.setStart(post.box, 0);
    range.setEnd(node, offset);
    return range.toString().length;
  }
  // Grapheme boundaries (code points) of a post: a selection never splits a character.
  function boundaries(post) {
    if (!post.bounds) {
      post.bounds = {0: true};
      post.bounds[post.cps.length] = true;
      if (segmenter) {
        Array.from(segmenter.segment(post.text)).forEach(function (s) {
          post.bounds[post.cp16[s.index]] = true;
        });
      } else {
        post.cps.forEach(function (c, i) { post.bounds[i] = true; });
      }
    }
    return post.bounds;
  }
  // The selected text of one post as code points, widened to whole characters and
  // trimmed of white space; null if there is none.
  function selection() {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || sel.rangeCount === 0) { return null; }
    var range = sel.getRangeAt(0);
    for (var i = 0; i < posts.length; i += 1) {
      var post = posts[i];
      if (!post.box.contains(range.startContainer) || !post.box.contains(range.endContainer)) {
        continue;
      }
      var a = unitsBefore(post, range.startContainer, range.startOffset);
      var b = unitsBefore(post, range.endContainer, range.endOffset);
      var start = post.cp16[a];                            // a unit inside a pair: its start
      var end = post.u16[post.cp16[b]] < b ? post.cp16[b] + 1 : post.cp16[b];
      var bounds = boundaries(post);
      while (start > 0 && !bounds[start]) { start -= 1; }
      while (end < post.cps.length && !bounds[end]) { end += 1; }
      while (start < end && /\\s/.test(post.cps[start])) { start += 1; }
      while (end > start && /\\s/.test(post.cps[end - 1])) { end -= 1; }
      return end > start ? {post: i, start: start, end: end} : null;
    }
    return null;
  }
  function sameSpan(found) {
    var list = state.spans[found.post];
    for (var k = 0; k < list.length; k += 1) {
      if (list[k].start === found.start && list[k].end === found.end) { return k; }
    }
    return -1;
  }
  function addSpan(found, name) {
    var same = sameSpan(found), person = same >= 0 ? state.spans[found.post][same].person : null;
    var list = state.spans[found.post].filter(function (s) {
      return s.end <= found.start || s.start >= found.end;
    });
    var span = {start: found.start, end: found.end, label: name};
    if (person) { span.person = person; }
    list.push(span);
    list.sort(function (x, y) { return x.start - y.start; });
    state.spans[found.post] = list;
    window.getSelection().removeAllRanges();
    select(found.post, list.indexOf(span));
    save();
  }
  function selectedSpan() {
    return selected ? state.spans[selected.post][selected.index] : null;
  }

  // A mouse selection of exactly a span (a double click on it) selects that span.
  main.addEventListener("mouseup", function () {
    var found = selection();
    if (!found) { return; }
    var same = sameSpan(found);
    if (same < 0) { addSpan(found, label); return; }
    window.getSelection().removeAllRanges();
    select(found.post, same);
  });
  main.addEventListener("click", function (event) {
    var mark = event.target.closest ? event.target.closest("mark.span") : null;
    if (!mark || !mark.isConnected || !window.getSelection().isCollapsed) { return; }
    var i = Number(mark.closest("article").dataset.post);
    select(i, Number(mark.dataset.index));
  });
  document.querySelectorAll("#toolbar button.label").forEach(function (button) {
    button.addEventListener("mousedown", function (event) { event.preventDefault(); });
    button.addEventListener("click", function () { applyLabel(button.dataset.label); });
  });
  function applyLabel(name) {
    var found = selection(), span = selectedSpan();
    setLabel(name);
    if (found) { addSpan(found, name); return; }
    if (span) { span.label = name; drawText(selected.post); save(); }
  }
  function removeSelected() {
    if (!selected) { return; }
    state.spans[selected.post].splice(selected.index, 1);
    select(selected.post, null);
    save();
  }
  function moveSpan(step) {
    var list = state.spans[current];
    if (!list.length) { return; }
    var k = selected && selected.post === current ? selected.index + step
      : (step > 0 ? 0 : list.length - 1);
    if (k >= 0 && k < list.length) { select(current, k); }
  }
  function setPerson() {
    var span = selectedSpan();
    if (!span) { return; }
    var answer = window.prompt("Person key of \\u201c" + posts[selected.post].cps
      .slice(span.start, span.end).join("") + "\\u201d (a username, or ~name for someone " +
      "who never posts; empty: none)", span.person || "");
    if (answer === null) { return; }
    answer = answer.trim();
    if (answer) { span.person = answer; } else { delete span.person; }
    drawText(selected.post); save();
  }
  var help = document.getElementById("help");
  function toggleHelp(show) { help.hidden = show === undefined ? !help.hidden : !show; }
  document.getElementById("help-button").addEventListener("click", function () { toggleHelp(); });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target.tagName;
    if (target === "INPUT" || target === "TEXTAREA") { return; }
    var key = event.key, handled = true;
    if (/^[1-9]$/.test(key) && Number(key) <= labels.length) {
      applyLabel(labels[Number(key) - 1]);
    } else if (key === "Enter" && selection()) {
      addSpan(selection(), label);
    } else if (key === "Delete" || key === "Backspace") {
      removeSelected();
    } else if (!event.shiftKey && (key === "j" || key === "ArrowDown")) {
      select(null, null); setCurrent(current + 1, true);
    } else if (!event.shiftKey && (key === "k" || key === "ArrowUp")) {
      select(null, null); setCurrent(current - 1, true);
    } else if (!event.shiftKey && key === "ArrowRight") {
      moveSpan(1);
    } else if (!event.shiftKey && key === "ArrowLeft") {
      moveSpan(-1);
    } else if (key === "p") {
      setPerson();
    } else if (key === "d") {
      state.done[current] = !state.done[current]; drawDone(current); save();
    } else if (key === "?") {
      toggleHelp();
    } else if (key === "Escape") {
      toggleHelp(false); select(null, null);
    } else {
      handled = false;
    }
    if (handled) { event.preventDefault(); }
  });

  // The export: every record, its fields in order as read, spans set (or added last).
  function exported() {
    return posts.map(function (post, i) {
      var spans = JSON.stringify(copySpans(state.spans[i]));
      var seen = false;
      var parts = post.fields.map(function (pair) {
        if (pair[0] === field) { seen = true; return JSON.stringify(field) + ": " + spans; }
        return JSON.stringify(pair[0]) + ": " + pair[1];
      });
      if (!seen) { parts.push(JSON.stringify(field) + ": " + spans); }
      return "{" + parts.join(", ") + "}\\n";
    }).join("");
  }
  document.getElementById("export").addEventListener("click", function () {
    var link = document.getElementById("download");
    if (link.href) { URL.revokeObjectURL(link.href); }
    link.href = URL.createObjectURL(new Blob([exported()],
                                             {type: "application/x-ndjson;charset=utf-8"}));
    link.download = data.exportName;
    link.click();
  });
  document.getElementById("reset").addEventListener("click", function () {
    if (!window.confirm("Forget the work saved in this browser and start from the page's " +
                        "spans again?")) { return; }
    try { localStorage.removeItem(storeKey); } catch (error) { /* nothing saved */ }
    selected = null; fresh(); draw(); save();
  });

  load();
  setLabel(label);
  draw();
})();
"""
