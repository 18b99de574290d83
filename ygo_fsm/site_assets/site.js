// ygo-fsm rule-review site: views chosen by the address's "#", all data from data.js (window.YGO_DATA).
(function () {
  "use strict";
  var D = window.YGO_DATA;
  var main = document.getElementById("main");
  var player = null; // the trace being played: {name, records, snapshots, story, storyAt}
  var step = 0;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") { node.textContent = attrs[key]; } else { node.setAttribute(key, attrs[key]); }
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function both(label) { return label.zh + " · " + label.en; }

  // --- diagrams: inline SVG with zoom and pan ------------------------------------------------
  function diagram(svgText) {
    var viewport = el("div", {"class": "viewport", id: "viewport"});
    var canvas = el("div", {"class": "canvas", id: "canvas"});
    canvas.innerHTML = svgText.replace(/^[\s\S]*?(<svg[\s\S]*<\/svg>)[\s\S]*$/, "$1");
    viewport.appendChild(canvas);
    var view = {scale: 1, x: 0, y: 0};
    function apply() {
      canvas.style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.scale + ")";
    }
    function zoom(factor, cx, cy) {
      var next = Math.min(4, Math.max(0.1, view.scale * factor));
      cx = cx === undefined ? viewport.clientWidth / 2 : cx;
      cy = cy === undefined ? viewport.clientHeight / 2 : cy;
      view.x = cx - (cx - view.x) * next / view.scale;
      view.y = cy - (cy - view.y) * next / view.scale;
      view.scale = next;
      apply();
    }
    function fit() {
      var svg = canvas.querySelector("svg");
      if (!svg) { return; }
      var w = svg.width.baseVal.value || 1, h = svg.height.baseVal.value || 1;
      view.scale = Math.min(1, viewport.clientWidth / w, viewport.clientHeight / h);
      view.x = 0; view.y = 0; apply();
    }
    viewport.addEventListener("wheel", function (event) {
      event.preventDefault();
      var box = viewport.getBoundingClientRect();
      zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, event.clientX - box.left, event.clientY - box.top);
    }, {passive: false});
    var drag = null;
    viewport.addEventListener("pointerdown", function (event) {
      if (event.target.closest && event.target.closest("a")) { return; }
      drag = {x: event.clientX - view.x, y: event.clientY - view.y};
      viewport.classList.add("dragging");
    });
    window.addEventListener("pointermove", function (event) {
      if (drag) { view.x = event.clientX - drag.x; view.y = event.clientY - drag.y; apply(); }
    });
    window.addEventListener("pointerup", function () { drag = null; viewport.classList.remove("dragging"); });
    canvas.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a") : null;
      if (!link) { return; }
      var href = link.getAttribute("xlink:href") || link.getAttribute("href") || "";
      var match = /^([a-z0-9_]+)\.svg$/.exec(href);
      if (match) { event.preventDefault(); location.hash = "#machine/" + match[1]; }
    });
    var toolbar = el("div", {"class": "toolbar"}, [
      button("+", function () { zoom(1.25); }, "zoom-in"),
      button("−", function () { zoom(0.8); }, "zoom-out"),
      button("100 %", function () { view.scale = 1; view.x = 0; view.y = 0; apply(); }, "zoom-reset"),
      button("fit", fit, "zoom-fit"),
      el("span", {"class": "muted", text: "滚轮缩放，拖动平移 · wheel to zoom, drag to pan"})
    ]);
    function focus(node) {
      var box = node.getBoundingClientRect(), port = viewport.getBoundingClientRect();
      if (box.left >= port.left && box.right <= port.right && box.top >= port.top && box.bottom <= port.bottom) {
        return;
      }
      view.x += (port.left + port.width / 2) - (box.left + box.width / 2);
      view.y += (port.top + port.height / 2) - (box.top + box.height / 2);
      apply();
    }
    apply();
    return {toolbar: toolbar, viewport: viewport, canvas: canvas, fit: fit, focus: focus};
  }

  function button(text, handler, id) {
    var node = el("button", {type: "button", text: text, id: id});
    node.addEventListener("click", handler);
    return node;
  }

  // --- views ---------------------------------------------------------------------------------
  function showOverview() {
    var view = diagram(D.overview);
    var list = el("ul", {}, D.order.map(function (id) {
      return el("li", {}, [el("a", {href: "#machine/" + id, text: id}), " — " + both(D.machines[id].label)]);
    }));
    var sources = el("table", {}, [el("tr", {}, [el("th", {text: "Seed"}), el("th", {text: "中文"}),
      el("th", {text: "English"})])].concat(D.sources.map(function (s) {
      return el("tr", {}, [el("td", {text: s.number}), el("td", {text: s.label.zh}), el("td", {text: s.label.en})]);
    })));
    main.replaceChildren(el("h1", {text: "规则总览 · Overview"}), view.toolbar, view.viewport,
      el("h2", {text: "状态机（按回合顺序）· Machines in turn order"}), list,
      el("h2", {text: "来源 · Sources"}), sources);
  }

  function showMachines() {
    main.replaceChildren(el("h1", {text: "状态机 · Machines"}), el("ul", {}, D.order.map(function (id) {
      return el("li", {}, [el("a", {href: "#machine/" + id, text: id}), " — " + both(D.machines[id].label)]);
    })));
  }

  function showMachine(id) {
    var machine = D.machines[id];
    if (!machine) { return notFound("machine " + id); }
    var view = diagram(machine.svg);
    var parents = machine.parents.length ? el("p", {}, ["从此进入 · entered from: "].concat(
      machine.parents.map(function (p, i) {
        return el("span", {}, [i ? ", " : "", el("a", {href: "#state/" + p, text: p})]);
      }))) : el("p", {"class": "muted", text: "the turn starts here"});
    var states = el("ul", {}, Object.keys(machine.states).map(function (sid) {
      return el("li", {}, [el("a", {href: "#state/" + id + "." + sid, text: sid}),
        " — " + both(machine.states[sid].label)]);
    }));
    main.replaceChildren(el("h1", {text: both(machine.label) + "  (" + id + ")"}), el("p", {text: machine.rule}),
      parents, view.toolbar, view.viewport, el("h2", {text: "状态 · States"}), states);
  }

  function showState(name) {
    var text = D.explain[name];
    if (text === undefined) { return notFound("state " + name); }
    var machine = name.split(".")[0];
    main.replaceChildren(el("h1", {text: name}),
      el("p", {}, [el("a", {href: "#machine/" + machine, text: "← " + machine})]), el("pre", {text: text}));
  }

  function showMatrix() {
    var head = el("tr", {}, [el("th", {text: "时点 · Window"}), el("th", {text: "States"})].concat(
      D.matrix.columns.map(function (c) { return el("th", {text: c.kind + " (" + c.speed + ")"}); })).concat(
      [el("th", {text: "Rule"})]));
    var rows = D.matrix.rows.map(function (row) {
      return el("tr", {}, [el("td", {text: both(row.label)}), el("td", {text: row.states.join(", ")})].concat(
        D.matrix.columns.map(function (c) { return el("td", {text: row.cells[c.kind]}); })).concat(
        [el("td", {text: row.rule})]));
    });
    main.replaceChildren(el("h1", {text: "发动表 · Activation matrix"}),
      el("p", {text: "TP = 回合玩家 turn player, OP = 对方 opponent; (n) = spell speed 咒文速度"}),
      el("table", {id: "matrix"}, [head].concat(rows)));
  }

  function showSearch(query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    var found = D.search.filter(function (item) {
      var text = item.text.toLowerCase();
      return words.length && words.every(function (w) { return text.indexOf(w) >= 0; });
    }).slice(0, 200);
    main.replaceChildren(el("h1", {text: "搜索 · Search: " + query}), el("ul", {"class": "results", id: "results"},
      found.map(function (item) {
        return el("li", {}, [el("span", {"class": "kind", text: item.kind}), el("a", {href: item.href, text: item.title})]);
      })), found.length ? el("span") : el("p", {"class": "muted", text: "nothing found"}));
  }

  function notFound(what) { main.replaceChildren(el("h1", {text: "not found: " + what})); }

  // --- trace playback -------------------------------------------------------------------------
  function transitionLabel(record) {
    var machine = D.machines[record.machine];
    var t = machine && machine.transitions[record.transition];
    return t ? both(t.label) : record.event;
  }

  function showPlay(exampleId) {
    var picker = el("select", {id: "example"}, [el("option", {value: "", text: "— 选择种子例子 pick a seed example —"})]
      .concat(D.examples.map(function (ex) { return el("option", {value: ex.id, text: ex.id + " — " + ex.name}); })));
    picker.addEventListener("change", function () { if (picker.value) { location.hash = "#play/" + picker.value; } });
    var file = el("input", {type: "file", id: "trace-file", accept: ".jsonl,.json,.txt"});
    file.addEventListener("change", function () {
      var chosen = file.files[0];
      if (!chosen) { return; }
      var reader = new FileReader();
      reader.onload = function () {
        var records = String(reader.result).split(/\r?\n/).filter(function (line) { return line.trim(); })
          .map(function (line) { return JSON.parse(line); });
        startTrace({id: "", name: chosen.name, records: records, snapshots: [], story: [], storyAt: []});
      };
      reader.readAsText(chosen);
    });
    main.replaceChildren(el("h1", {text: "回放 · Trace playback"}),
      el("div", {"class": "toolbar"}, [picker, el("span", {text: " 或载入 or load a trace (JSON Lines): "}), file]),
      el("div", {id: "player"}));
    if (exampleId) {
      var example = D.examples.filter(function (ex) { return ex.id === exampleId; })[0];
      if (!example) { return notFound("example " + exampleId); }
      picker.value = exampleId;
      startTrace(example);
    }
  }

  function startTrace(trace) {
    player = trace;
    step = 0;
    var box = document.getElementById("player");
    var controls = el("div", {"class": "toolbar"}, [
      button("|◀", function () { go(0); }, "first"), button("◀", function () { go(step - 1); }, "back"),
      button("▶", function () { go(step + 1); }, "forward"),
      button("▶|", function () { go(player.records.length - 1); }, "last"),
      el("span", {id: "position"}), el("span", {"class": "muted", text: "← → 键 keys"})
    ]);
    var side = el("div", {"class": "side"}, [
      el("section", {}, [el("h2", {text: "当前 · Now"}), el("div", {id: "current-state"}),
        el("div", {id: "current-step"})]),
      el("section", {}, [el("h2", {text: "LP · 手卡 hand"}), el("table", {id: "players"})]),
      el("section", {}, [el("h2", {text: "连锁 · Chain"}), el("ol", {id: "chain"})]),
      el("section", {}, [el("h2", {text: "经过 · Story"}), el("div", {id: "story"})])
    ]);
    box.replaceChildren(el("h2", {text: trace.name}), controls,
      el("div", {"class": "play"}, [el("div", {id: "play-diagram"}), side]));
    go(0);
  }

  var shownMachine = null;
  var shownView = null;
  function go(index) {
    if (!player || !player.records.length) { return; }
    step = Math.max(0, Math.min(player.records.length - 1, index));
    var record = player.records[step];
    var holder = document.getElementById("play-diagram");
    if (!holder) { return; }
    if (shownMachine !== record.machine || !holder.firstChild) {
      var machine = D.machines[record.machine];
      var view = diagram(machine ? machine.svg : "<svg></svg>");
      holder.replaceChildren(el("div", {id: "play-machine", text: record.machine}), view.toolbar, view.viewport);
      shownMachine = record.machine;
      shownView = view;
    }
    var canvas = document.getElementById("canvas");
    canvas.querySelectorAll(".current").forEach(function (n) { n.classList.remove("current"); });
    canvas.querySelectorAll(".taken").forEach(function (n) { n.classList.remove("taken"); });
    var node = canvas.querySelector("#state_" + record.dest);
    if (node) { node.classList.add("current"); }
    var edge = canvas.querySelector("g.tr_" + record.transition);
    if (edge) { edge.classList.add("taken"); }
    if (node && shownView) { shownView.focus(node); }
    var current = document.getElementById("current-state");
    current.setAttribute("data-machine", record.machine);
    current.setAttribute("data-state", record.dest);
    current.setAttribute("data-step", String(step));
    current.textContent = record.state;
    document.getElementById("position").textContent = (step + 1) + " / " + player.records.length;
    var who = record.actor === "engine" ? "自动 automatic" : (record.actor === record.turn_player ?
      "回合玩家 " : "对方 ") + record.actor;
    document.getElementById("current-step").replaceChildren(
      el("div", {text: "#" + record.seq + " 第" + record.turn + "回合 turn " + record.turn + " · " + who}),
      el("div", {text: transitionLabel(record) + (record.choice ? " ‹" + record.choice + "›" : "")}),
      el("div", {"class": "muted", text: "[" + record.rule + "]"}));
    var snapshot = player.snapshots[step];
    var rows = [el("tr", {}, [el("th", {text: ""}), el("th", {text: "LP"}), el("th", {text: "手卡 hand"})])];
    if (snapshot) {
      Object.keys(snapshot).forEach(function (p) {
        rows.push(el("tr", {}, [el("th", {text: p + (p === record.turn_player ? " (回合玩家)" : "")}),
          el("td", {text: String(snapshot[p].lp)}), el("td", {text: String(snapshot[p].hand)})]));
      });
    } else {
      rows.push(el("tr", {}, [el("td", {colspan: "3", "class": "muted", text: "not in the trace file"})]));
    }
    document.getElementById("players").replaceChildren.apply(document.getElementById("players"), rows);
    document.getElementById("chain").replaceChildren.apply(document.getElementById("chain"),
      (record.chain || []).map(function (link) {
        return el("li", {text: "CHAIN" + link.number + " " + link.controller + " 「" + link.card + "」 (" +
          link.spell_speed + ")" + (link.negated ? " ✕" : "")});
      }));
    var storyBox = document.getElementById("story");
    if (player.story.length) {
      var upTo = player.storyAt[step];
      storyBox.replaceChildren.apply(storyBox, player.story.map(function (line, i) {
        return el("div", {"class": i === upTo - 1 ? "now" : (i >= upTo ? "later" : ""), text: line});
      }));
      var now = storyBox.querySelector(".now");
      if (now) { storyBox.scrollTop = now.offsetTop - storyBox.offsetTop - 40; }
    } else {
      storyBox.replaceChildren.apply(storyBox, player.records.slice(0, step + 1).map(function (r, i) {
        return el("div", {"class": i === step ? "now" : "", text: transitionLabel(r) +
          (r.detail && r.detail.length ? " — " + r.detail.join(" ") : "")});
      }));
    }
  }

  document.addEventListener("keydown", function (event) {
    if (!player || !document.getElementById("player")) { return; }
    if (event.target && /input|select|textarea/i.test(event.target.tagName)) { return; }
    if (event.key === "ArrowRight" || event.key === "j") { go(step + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft" || event.key === "k") { go(step - 1); event.preventDefault(); }
    if (event.key === "Home") { go(0); event.preventDefault(); }
    if (event.key === "End") { go(player.records.length - 1); event.preventDefault(); }
  });

  document.getElementById("search-form").addEventListener("submit", function (event) {
    event.preventDefault();
    location.hash = "#search/" + encodeURIComponent(document.getElementById("search").value);
  });

  function route() {
    var hash = decodeURIComponent(location.hash.replace(/^#/, ""));
    var parts = hash.split("/");
    var rest = parts.slice(1).join("/");
    if (parts[0] !== "play") { player = null; shownMachine = null; }
    if (parts[0] === "machine") { showMachine(rest); }
    else if (parts[0] === "machines") { showMachines(); }
    else if (parts[0] === "state") { showState(rest); }
    else if (parts[0] === "matrix") { showMatrix(); }
    else if (parts[0] === "search") { showSearch(rest); }
    else if (parts[0] === "play") { shownMachine = null; showPlay(rest); }
    else { showOverview(); }
  }
  window.addEventListener("hashchange", route);
  route();
}());
