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
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #30363d; --head: #151b23;
            --link: #4493f8; --hit: #12261e; --miss: #3c1618; --miss-strong: #6e1f22; --partial: #332b00;
            --high: #3fb950; --medium: #d29922; --low: #f85149; --track: #30363d; --focus: #4493f8;
          }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg);
          font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; }
        header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
        header { padding-top: 16px; }
        h1 { font-size: 22px; margin: 8px 0 4px; overflow-wrap: anywhere; }
        h2 { font-size: 17px; margin: 24px 0 8px; }
        a { color: var(--link); text-decoration: none; }
        a:hover, a:focus { text-decoration: underline; }
        :focus-visible { outline: 2px solid var(--focus); outline-offset: 1px; }
        .crumbs { list-style: none; padding: 0; margin: 0; color: var(--muted); display: flex; flex-wrap: wrap; }
        .crumbs li + li::before { content: "›"; padding: 0 6px; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
          white-space: nowrap; }
        .summary { display: flex; flex-wrap: wrap; gap: 8px 32px; margin: 8px 0; }
        .summary div { min-width: 220px; }
        .summary dt { color: var(--muted); }
        .summary dd { margin: 0; font-size: 18px; }
        table { border-collapse: collapse; width: 100%; }
        th, td { padding: 4px 8px; border-bottom: 1px solid var(--border); text-align: left; vertical-align: middle; }
        thead th { background: var(--head); position: sticky; top: 0; }
        th[data-sort] { cursor: pointer; user-select: none; white-space: nowrap; }
        th[data-sort]::after { content: " ↕"; color: var(--muted); }
        th[aria-sort="ascending"]::after { content: " ↑"; }
        th[aria-sort="descending"]::after { content: " ↓"; }
        tbody th { font-weight: normal; overflow-wrap: anywhere; }
        td.metric { white-space: nowrap; min-width: 190px; }
        .bar { display: inline-block; width: 80px; height: 8px; background: var(--track); border-radius: 4px;
          vertical-align: middle; overflow: hidden; }
        .bar > span { display: block; height: 100%; }
        .high { background: var(--high); } .medium { background: var(--medium); } .low { background: var(--low); }
        .pct { display: inline-block; min-width: 64px; text-align: right; font-variant-numeric: tabular-nums; }
        .frac { color: var(--muted); font-variant-numeric: tabular-nums; }
        .filter { margin: 8px 0; }
        .filter input { font: inherit; padding: 4px 8px; width: min(420px, 100%); background: var(--bg); color: var(--fg);
          border: 1px solid var(--border); border-radius: 6px; }
        .notice { border: 1px solid var(--medium); background: var(--partial); padding: 8px 12px; border-radius: 6px; }
        .failure { border-left: 3px solid var(--low); padding-left: 8px; }
        .failure pre { white-space: pre-wrap; margin: 4px 0; }
        .keys button { font: inherit; background: var(--head); color: var(--fg); border: 1px solid var(--border);
          border-radius: 6px; padding: 2px 10px; cursor: pointer; }
        kbd { border: 1px solid var(--border); border-radius: 4px; padding: 0 4px; background: var(--head); }
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
        table.source .z { background: var(--miss-strong); border-radius: 2px; }
        table.source tr:target td { outline: 1px solid var(--focus); }
        table.source tr.stale td.src { color: var(--muted); font-style: italic; }
        footer { color: var(--muted); padding: 24px; }
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
          var uncovered = Array.prototype.slice.call(document.querySelectorAll("table.source tr.miss, table.source tr.partial"));
          var current = -1;
          function go(step) {
            if (uncovered.length === 0) return;
            current = (current + step + uncovered.length) % uncovered.length;
            var row = uncovered[current];
            row.scrollIntoView({ block: "center" });
            history.replaceState(null, "", "#" + row.id);
            var link = row.querySelector("td.ln a");
            if (link) link.focus({ preventScroll: true });
          }
          var next = document.getElementById("next-uncovered");
          var previous = document.getElementById("previous-uncovered");
          if (next) next.addEventListener("click", function () { go(1); });
          if (previous) previous.addEventListener("click", function () { go(-1); });
          document.addEventListener("keydown", function (event) {
            if (event.target && (event.target.tagName === "INPUT" || event.target.tagName === "TEXTAREA")) return;
            if (event.altKey || event.ctrlKey || event.metaKey) return;
            if (event.key === "n" || event.key === "j") go(1);
            if (event.key === "p" || event.key === "k") go(-1);
          });
        })();
        """
}
