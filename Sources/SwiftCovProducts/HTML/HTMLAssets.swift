/// The stylesheet and script every page of the HTML report links to, written beside the pages:
/// no network, no CDN, works from the file system.
package enum HTMLAssets {
    /// File name of the stylesheet in the output folder.
    package static let stylesheetName = "swiftcov.css"
    /// File name of the script in the output folder.
    package static let scriptName = "swiftcov.js"

    /// Light and dark themes follow the system setting; colours never carry meaning alone (every
    /// bar has its percentage as text, every uncovered line its count).
    package static let stylesheet = """
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --head: #f6f8fa;
          --link: #0550ae; --hit: #dafbe1; --miss: #ffebe9; --miss-strong: #ffcecb; --partial: #fff8c5;
          --high: #1a7f37; --medium: #9a6700; --low: #cf222e; --track: #e6e9ec; --focus: #0969da;
          --current: #fff1a8;
          --kw: #a0111f; --st: #0a3069; --cm: #57606a; --nu: #0550ae; --at: #6639ba; --pp: #953800;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #30363d; --head: #151b23;
            --link: #4493f8; --hit: #12261e; --miss: #3c1618; --miss-strong: #6e1f22; --partial: #332b00;
            --high: #3fb950; --medium: #d29922; --low: #f85149; --track: #30363d; --focus: #4493f8;
            --current: #3d3300;
            --kw: #ff9492; --st: #a5d6ff; --cm: #9198a1; --nu: #79c0ff; --at: #d2a8ff; --pp: #ffa657;
          }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; }
        header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
        header { padding-top: 16px; }
        h1 { font-size: 22px; margin: 8px 0 4px; overflow-wrap: anywhere; }
        h2 { font-size: 17px; margin: 24px 0 8px; }
        h3 { font-size: 15px; }
        a { color: var(--link); text-decoration: none; }
        a:hover, a:focus { text-decoration: underline; }
        :focus-visible { outline: 2px solid var(--focus); outline-offset: 1px; }
        .aside { font-size: 13px; font-weight: normal; margin-left: 8px; }
        .crumbs { list-style: none; padding: 0; margin: 0; color: var(--muted); display: flex; flex-wrap: wrap; }
        .crumbs li { overflow-wrap: anywhere; }
        .crumbs li + li::before { content: "›"; padding: 0 6px; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
          white-space: nowrap; }
        .summary { display: flex; flex-wrap: wrap; gap: 4px 32px; margin: 8px 0; }
        .summary div { min-width: 200px; }
        .summary dt { color: var(--muted); }
        .summary dd { margin: 0; font-size: 18px; }
        .wide { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; }
        th, td { padding: 4px 8px; border-bottom: 1px solid var(--border); text-align: left; vertical-align: middle; }
        thead th { background: var(--head); }
        th[data-sort] { cursor: pointer; user-select: none; white-space: nowrap; }
        th[data-sort]::after { content: " ↕"; color: var(--muted); }
        th[aria-sort="ascending"]::after { content: " ↑"; }
        th[aria-sort="descending"]::after { content: " ↓"; }
        tbody th { font-weight: normal; overflow-wrap: anywhere; }
        td.metric { white-space: nowrap; }
        table.functions tr.miss th a::before { content: "✗ "; color: var(--low); }
        table.functions tbody th { overflow-wrap: normal; min-width: 8em; }
        .bar { display: inline-block; width: 64px; height: 8px; background: var(--track); border-radius: 4px;
          vertical-align: middle; overflow: hidden; }
        .bar > span { display: block; height: 100%; }
        .high { background: var(--high); } .medium { background: var(--medium); } .low { background: var(--low); }
        .pct { display: inline-block; min-width: 58px; text-align: right; font-variant-numeric: tabular-nums; }
        .frac { color: var(--muted); font-variant-numeric: tabular-nums; }
        .filter { margin: 8px 0; }
        .filter input { font: inherit; padding: 4px 8px; width: min(420px, 100%); background: var(--bg); color: var(--fg);
          border: 1px solid var(--border); border-radius: 6px; }
        .notice { overflow-wrap: anywhere; border: 1px solid var(--medium); background: var(--partial); padding: 8px 12px; border-radius: 6px; }
        .failure { border-left: 3px solid var(--low); padding-left: 8px; margin: 4px 0; overflow-wrap: anywhere; }
        .failure a { text-decoration: underline; }
        .failure pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; font-size: 12px; }
        .failed-tag { color: var(--low); font-weight: 600; } .passed-tag { color: var(--high); }
        .skipped-tag { color: var(--muted); }
        .verdict { margin: 4px 0 12px; }
        .evidence { margin: 4px 0; }
        .failed-tag, .passed-tag { white-space: nowrap; }
        .thumb img { max-width: min(240px, 100%); max-height: 180px; border: 1px solid var(--border); border-radius: 4px;
          display: block; margin: 4px 0; }
        .run { border-top: 1px solid var(--border); margin-top: 16px; }
        .run h2 { overflow-wrap: anywhere; }
        ol.steps, ol.steps ol { list-style: none; margin: 0; padding: 0; }
        ol.steps ol { padding-left: 18px; border-left: 1px solid var(--border); margin-left: 6px; }
        ol.steps li { margin: 2px 0; }
        ol.steps .step { overflow-wrap: anywhere; padding: 2px 6px; border-radius: 4px; }
        ol.steps li.failing > .step { background: var(--miss); }
        ol.steps .time { color: var(--muted); font-variant-numeric: tabular-nums; font-size: 12px; white-space: nowrap; }
        .attachments { display: flex; flex-wrap: wrap; gap: 8px; margin: 4px 0 4px 6px; }
        figure.attachment { margin: 0; max-width: min(320px, 100%); }
        figure.attachment img, figure.attachment video { max-width: 100%; height: auto; max-height: 480px; display: block;
          border: 1px solid var(--border); border-radius: 4px; background: var(--head); }
        figure.attachment figcaption { font-size: 12px; overflow-wrap: anywhere; }
        figure.attachment.text { max-width: 100%; }
        figure.attachment.text pre { margin: 0; padding: 6px 8px; max-height: 320px; overflow: auto; white-space: pre-wrap;
          overflow-wrap: anywhere; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
          border: 1px solid var(--border); border-radius: 4px; background: var(--head); }
        p.attachment { margin: 2px 0; overflow-wrap: anywhere; }
        p.left-out { color: var(--muted); }
        table.matrix td { white-space: nowrap; }
        details.passing { margin: 8px 0; }
        kbd { border: 1px solid var(--border); border-radius: 4px; padding: 0 4px; background: var(--head); }
        .tree-head, .tree .row { display: grid; grid-template-columns: minmax(0, 1fr) repeat(3, 216px); gap: 0 8px;
          align-items: center; }
        .two-metrics.tree-head, .two-metrics .row { grid-template-columns: minmax(0, 1fr) repeat(2, 216px); }
        .tree-head { color: var(--muted); border-bottom: 1px solid var(--border); padding: 4px 8px; font-weight: 600; }
        .tree, .tree ul { list-style: none; margin: 0; padding: 0; }
        .tree ul { padding-left: 16px; }
        .tree .row { padding: 3px 8px; border-bottom: 1px solid var(--border); }
        .tree summary.row { cursor: pointer; list-style: none; }
        .tree summary.row::-webkit-details-marker { display: none; }
        .tree summary .name::before { content: "▸ "; color: var(--muted); }
        .tree details[open] > summary .name::before { content: "▾ "; }
        .tree summary .name { font-weight: 600; }
        .tree .name { overflow-wrap: anywhere; min-width: 0; }
        .tree .metric { min-width: 0; }
        .tree .metric .frac { white-space: nowrap; }
        details > summary h2 { display: inline; }
        .treemap { margin: 0; }
        .treemap svg { width: 100%; height: auto; display: block; background: var(--head); }
        .treemap rect { stroke: var(--bg); stroke-width: 1; }
        .treemap rect.folder { fill: none; stroke: var(--muted); stroke-width: 1.5; }
        .treemap a:hover rect { stroke: var(--fg); stroke-width: 2; }
        .treemap text { font: 11px sans-serif; fill: #000; pointer-events: none; }
        .treemap figcaption { color: var(--muted); margin-top: 4px; }
        .scale { display: inline-block; width: 80px; height: 10px; vertical-align: middle;
          background: linear-gradient(to right, hsl(0,65%,62%), hsl(60,65%,62%), hsl(120,65%,62%)); }
        .toolbar { position: sticky; top: 0; z-index: 1; background: var(--bg); display: flex; flex-wrap: wrap;
          align-items: center; gap: 4px 10px; padding: 6px 0; border-bottom: 1px solid var(--border); }
        .toolbar button { font: inherit; background: var(--head); color: var(--fg); border: 1px solid var(--border);
          border-radius: 6px; padding: 2px 10px; cursor: pointer; }
        .toolbar .keys { color: var(--muted); }
        .legend { color: var(--muted); margin: 6px 0; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
        .legend .key { display: inline-block; min-width: 28px; padding: 0 4px; text-align: right; color: var(--fg);
          font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; border: 1px solid var(--border); }
        .key.hit { background: var(--hit); } .key.miss { background: var(--miss); color: var(--low); font-weight: 600; }
        .key.partial::before, table.source tr.partial td.n::before { content: "◐ "; color: var(--medium); }
        .code { overflow-x: auto; border: 1px solid var(--border); border-radius: 6px; }
        table.source { font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        table.source td { border: 0; padding: 0 8px; }
        table.source td.ln { text-align: right; color: var(--muted); width: 1%; user-select: none; }
        table.source td.ln a { color: inherit; }
        table.source td.n { text-align: right; width: 1%; white-space: nowrap; color: var(--muted); user-select: none;
          font-variant-numeric: tabular-nums; }
        table.source td.src { white-space: pre; tab-size: 4; }
        table.source tr.hit td.n { background: var(--hit); color: var(--fg); }
        table.source tr.miss td.n, table.source tr.miss td.src { background: var(--miss); }
        table.source tr.miss td.n { color: var(--low); font-weight: 600; }
        table.source tr.partial td.n { background: var(--partial); }
        .legend .z { color: var(--fg); }
        table.source .z, .legend .z { background: var(--miss-strong); border-radius: 2px;
          text-decoration: underline wavy var(--low); text-decoration-skip-ink: none; }
        table.source tbody.current td.ln { box-shadow: inset 4px 0 var(--focus); }
        table.source tbody.current td.src { background: var(--current); }
        table.source tr:target td { outline: 1px solid var(--focus); }
        table.source tr.note td { white-space: normal; padding: 2px 8px 6px; }
        table.source tr.note .failure { max-width: 100ch; font-family: -apple-system, "Segoe UI", Helvetica, Arial,
          sans-serif; }
        .cat { display: inline-block; min-width: 3.4em; padding: 0 3px; border: 1px solid var(--border);
          border-radius: 3px; text-align: center; color: var(--fg);
          font: 600 11px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        .cat.bad { background: var(--miss-strong); } .cat.good { background: var(--hit); }
        .cat.same { background: var(--head); }
        .cat + .cat { margin-left: 2px; }
        .differential p { margin: 6px 0; }
        .categories { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 4px 18px; }
        .jump { overflow-wrap: anywhere; }
        .jump a, table.changed th a, .test-set a { text-decoration: underline; }
        .codes { margin: 6px 0; color: var(--muted); }
        .codes dl { margin: 6px 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 330px), 1fr));
          gap: 2px 16px; }
        .codes dl div { display: flex; gap: 8px; align-items: baseline; } .codes dd { margin: 0; color: var(--fg); }
        td.counts { line-height: 1.9; } td.counts a { white-space: nowrap; }
        table.source td.d { width: 1%; white-space: nowrap; padding: 0 4px; }
        table.source td.t { width: 1%; white-space: nowrap; text-align: right; padding: 0 4px; }
        table.source td.t button { font: inherit; color: var(--link); background: var(--bg); cursor: pointer;
          border: 1px solid var(--border); border-radius: 4px; padding: 0 5px; min-width: 2.2em; }
        table.source tr.deleted td { background: var(--head); border-top: 1px dashed var(--border); }
        table.source tr.deleted td.d .cat { display: block; margin: 1px 0; }
        .legend .key.tests { color: var(--link); }
        table.source tr.deleted .gone { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
          color: var(--muted); font-style: italic; }
        .test-set { max-width: min(680px, 92vw); max-height: 75vh; overflow: auto; padding: 12px 16px;
          background: var(--bg); color: var(--fg); border: 1px solid var(--border); border-radius: 8px;
          overflow-wrap: break-word; }
        .test-set::backdrop { background: rgb(0 0 0 / 25%); }
        .test-set ol { list-style: none; padding: 0; margin: 0 0 8px; }
        .test-set button { font: inherit; background: var(--head); color: var(--fg); border: 1px solid var(--border);
          border-radius: 6px; padding: 2px 10px; cursor: pointer; }
        table.tests tbody th { overflow-wrap: break-word; }
        table.tests tr:target > * { background: var(--current); }
        .kw { color: var(--kw); } .st { color: var(--st); } .cm { color: var(--cm); font-style: italic; }
        .nu { color: var(--nu); } .at { color: var(--at); } .pp { color: var(--pp); } .ip { color: var(--kw); }
        footer { color: var(--muted); padding: 24px; }
        @media (max-width: 700px) {
          header, main { padding: 0 10px; }
          footer { padding: 16px 10px; }
          .tree-head, .tree .row { grid-template-columns: repeat(3, minmax(0, 1fr)); }
          .two-metrics.tree-head, .two-metrics .row { grid-template-columns: repeat(2, minmax(0, 1fr)); }
          .tree-head span:first-child { display: none; }
          .tree .row .name { grid-column: 1 / -1; }
          .tree .metric .bar, td.metric .bar { display: none; }
          .pct { min-width: 0; }
          .tree .metric .frac, td.metric .frac { display: block; font-size: 12px; }
          .tree .metric { white-space: normal; }
          .summary div { min-width: 0; }
          th, td { padding: 4px; }
        }
        """

    /// Sorting, filtering and keyboard navigation; the pages work without it.
    package static let script = """
        (function () {
          "use strict";
          function cellValue(row, index, type) {
            var cell = row.children[index];
            var value = cell.getAttribute("data-value");
            if (value === null) value = cell.textContent.trim();
            return type === "number" ? parseFloat(value) : value.toLowerCase();
          }
          document.querySelectorAll("table.sortable").forEach(function (table) {
            var headers = table.querySelectorAll("th[data-sort]");
            headers.forEach(function (header, index) {
              header.tabIndex = 0;
              function sort() {
                var ascending = header.getAttribute("aria-sort") !== "ascending";
                headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
                header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
                var type = header.getAttribute("data-sort");
                var body = table.tBodies[0];
                var rows = Array.prototype.slice.call(body.rows);
                rows.sort(function (a, b) {
                  var x = cellValue(a, index, type), y = cellValue(b, index, type);
                  var order = x < y ? -1 : x > y ? 1 : 0;
                  return ascending ? order : -order;
                });
                rows.forEach(function (row) { body.appendChild(row); });
              }
              header.addEventListener("click", sort);
              header.addEventListener("keydown", function (event) {
                if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); }
              });
            });
          });
          var filter = document.getElementById("filter");
          if (filter) {
            filter.addEventListener("input", function () {
              var text = filter.value.toLowerCase();
              document.querySelectorAll("#file-table tbody tr").forEach(function (row) {
                row.hidden = text !== "" && row.textContent.toLowerCase().indexOf(text) === -1;
              });
            });
          }
          function openTo(element) {
            for (var node = element; node; node = node.parentElement) {
              if (node.tagName === "DETAILS") node.open = true;
            }
          }
          if (location.hash.length > 1) {
            var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
            if (target) { openTo(target); target.scrollIntoView(); }
          }
          var tree = document.getElementById("tree");
          if (filter && tree) {
            filter.addEventListener("input", function () {
              var text = filter.value.toLowerCase();
              tree.querySelectorAll("li.file").forEach(function (item) {
                var link = item.querySelector("a");
                item.hidden = text !== "" && (link.title + " " + link.textContent).toLowerCase().indexOf(text) === -1;
              });
              var folders = Array.prototype.slice.call(tree.querySelectorAll("li[id]")).reverse();
              folders.forEach(function (folder) {
                var shown = folder.querySelector("li.file:not([hidden])") !== null;
                folder.hidden = !shown;
                if (text !== "" && shown) folder.firstElementChild.open = true;
              });
            });
          }
          var blocks = Array.prototype.slice.call(document.querySelectorAll("table.source tbody.block"));
          var status = document.getElementById("block-status");
          var total = status ? status.textContent : "";
          var current = -1;
          function show(index) {
            if (current >= 0) blocks[current].classList.remove("current");
            current = index;
            var block = blocks[current];
            block.classList.add("current");
            var row = block.rows[0];
            row.scrollIntoView({ block: "center" });
            history.replaceState(null, "", "#" + row.id);
            var link = row.querySelector("td.ln a");
            if (link) link.focus({ preventScroll: true });
            if (status) status.textContent = "Block " + (current + 1) + " of " + blocks.length;
          }
          function go(step) {
            if (blocks.length === 0) return;
            show((current + step + blocks.length) % blocks.length);
          }
          if (location.hash.indexOf("#L") === 0) {
            var line = document.getElementById(location.hash.slice(1));
            blocks.forEach(function (block, index) { if (line && block.contains(line)) { current = index; block.classList.add("current"); } });
            if (current >= 0 && status) status.textContent = "Block " + (current + 1) + " of " + blocks.length;
          }
          var next = document.getElementById("next-block");
          var previous = document.getElementById("previous-block");
          if (next) next.addEventListener("click", function () { go(1); });
          if (previous) previous.addEventListener("click", function () { go(-1); });
          var keys = document.getElementById("keys");
          var stored = null;
          try { stored = localStorage.getItem("swiftcov-keys"); } catch (error) {}
          if (keys) {
            if (stored === "off") keys.checked = false;
            keys.addEventListener("change", function () {
              try { localStorage.setItem("swiftcov-keys", keys.checked ? "on" : "off"); } catch (error) {}
            });
          }
          document.addEventListener("keydown", function (event) {
            if (!keys || !keys.checked) return;
            if (event.target && (event.target.tagName === "INPUT" || event.target.tagName === "TEXTAREA")) return;
            if (event.altKey || event.ctrlKey || event.metaKey) return;
            if (event.key === "n" || event.key === "j") go(1);
            if (event.key === "p" || event.key === "k") go(-1);
          });
          if (status && blocks.length === 0) status.textContent = total;
          // A link in a line's list of tests leads to the table: the list closes.
          window.addEventListener("hashchange", function () {
            document.querySelectorAll(".test-set").forEach(function (set) {
              try { if (set.matches(":popover-open")) set.hidePopover(); } catch (error) {}
            });
          });
        })();
        """
}
