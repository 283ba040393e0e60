// The live table page (issue 16). Draws what the server says; decides nothing.
// Geometry, colours and pip patterns come from the server (the board picture's own).
"use strict";
(() => {
  const NS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  const st = { texts: {}, table: null, hand: null, you: null, offset: 0, chosen: null,
               pending: false, result: 0, winner: null, shown: null, socket: null, retry: 0, closed: false,
               denied: false };

  // inside Discord (an Activity): Discord opens the page with these in its address
  const inDiscord = query.has("frame_id") && query.has("instance_id");

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    });
  }

  // the Discord SDK's login (static/activity.js, loaded only here), once: its token is
  // the hello of every (re)connection
  let discordLogin = null;
  async function discordCredentials() {
    if (!discordLogin) {
      discordLogin = (async () => {
        const config = await (await fetch(".proxy/api/activity")).json();
        await loadScript("static/activity.js");
        return window.DominoActivity.login(config.client_id);
      })();
    }
    const login = await discordLogin;
    return { discord: login.access_token, channel: login.channel };
  }

  function credentials() {
    const app = window.Telegram && window.Telegram.WebApp;
    const withTable = (data) => (query.get("t") ? { init_data: data, table: query.get("t") }
                                                 : { init_data: data });
    if (app && app.initData) return withTable(app.initData);
    if (fragment.get("tgWebAppData")) return withTable(fragment.get("tgWebAppData"));
    if (query.get("s")) return { seat: query.get("s") };
    if (query.get("w")) return { watch: query.get("w") };
    return null;
  }

  function t(key, params) {
    let text = st.texts[key] || "";
    for (const [k, v] of Object.entries(params || {})) text = text.replace("{" + k + "}", v);
    return text;
  }

  function rgb(c) { return "rgb(" + c.join(",") + ")"; }

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  // ---------------------------------------------------------------- tiles
  function tileSvg(parent, board, x, y, w, h, vertical, a, b, look) {
    const colors = board.colors[look || "face"];
    const s = vertical ? w : h;
    const g = el("g", { class: "tile-face" }, parent);
    el("rect", { x, y, width: w, height: h, rx: s * 0.2, fill: rgb(colors[1]) }, g);
    const inset = Math.max(1, s * 0.045);
    el("rect", { x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset,
                 rx: s * 0.16, fill: rgb(colors[0]) }, g);
    if (vertical) {
      el("rect", { x: x + s * 0.14, y: y + s - s * 0.035, width: s * 0.72, height: s * 0.07,
                   fill: rgb(colors[1]) }, g);
    } else {
      el("rect", { x: x + s - s * 0.035, y: y + s * 0.14, width: s * 0.07, height: s * 0.72,
                   fill: rgb(colors[1]) }, g);
    }
    const r = s * 0.095;
    [[0, a], [1, b]].forEach(([half, value]) => {
      for (const [col, row] of board.pips[String(value)]) {
        const cx = vertical ? x + s * (0.24 + 0.26 * col) : x + half * s + s * (0.24 + 0.26 * row);
        const cy = vertical ? y + half * s + s * (0.24 + 0.26 * row) : y + s * (0.24 + 0.26 * col);
        el("circle", { cx, cy, r, fill: rgb(colors[2]) }, g);
      }
    });
    return g;
  }

  // ---------------------------------------------------------------- board
  function drawBoard() {
    const table = st.table;
    const svg = $("board");
    const board = table.board;
    svg.replaceChildren();
    svg.setAttribute("viewBox", "0 0 " + board.width + " " + board.height);
    const c = board.colors;
    el("rect", { x: 0, y: 0, width: board.width, height: board.height, fill: rgb(c.background) }, svg);
    const [x0, y0, x1, y1] = board.area;
    el("rect", { x: x0 - 8, y: y0 - 8, width: x1 - x0 + 16, height: y1 - y0 + 16, rx: 28,
                 fill: rgb(c.table), stroke: rgb(c.table_edge), "stroke-width": 4 }, svg);
    for (const seat of table.seats) drawSeat(svg, board, seat, table);
    // the last tile played is marked; a tile new since the last picture slides in
    const orders = table.line.tiles.map((box) => box.order);
    const newest = orders.length ? Math.max(...orders) : -1;
    const key = table.table + "/" + table.hand;
    const seen = st.shown && st.shown.key === key;  // not on the page's first picture
    const before = seen ? st.shown.newest : Infinity;
    for (const box of table.line.tiles) {
      const g = tileSvg(svg, board, box.x, box.y, box.w, box.h, box.vertical, box.a, box.b);
      if (box.order === newest) g.classList.add("last-tile");
      if (box.order > before) g.classList.add("new-tile");
    }
    st.shown = { key, newest };
    const choosing = st.chosen && st.chosen.length === 2;
    for (const end of table.line.ends) {
      const r = Math.max(18, table.line.short * 0.55);
      const move = choosing ? st.chosen.find((m) => m.side === end.side) : null;
      const g = el("g", { class: "end" + (move ? " choose" : ""), "data-side": end.side }, svg);
      el("circle", { cx: end.x, cy: end.y, r, fill: move ? rgb(c.gold) : rgb(c.panel),
                     stroke: rgb(c.gold), "stroke-width": 3, opacity: move ? 1 : 0.85 }, g);
      const label = el("text", { x: end.x, y: end.y + r * 0.38, "text-anchor": "middle",
                                 "font-size": r * 1.05, "font-weight": "bold",
                                 fill: move ? rgb(c.panel) : rgb(c.white) }, g);
      label.textContent = String(end.number);
      if (move) {
        g.style.cursor = "pointer";
        g.addEventListener("click", () => press(move.payload));
      }
    }
    $("caption").textContent = table.caption;
  }

  function drawSeat(svg, board, seat, table) {
    const [x0, y0, x1, y1] = board.panels[String(seat.seat)];
    const c = board.colors;
    const turn = table.turn === seat.seat && table.phase === "playing" && !table.outcome;
    el("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 16, fill: rgb(c.panel),
                 stroke: turn ? rgb(c.gold) : rgb(c.teams[seat.team]),
                 "stroke-width": turn ? 6 : 3 }, svg);
    const place = board.places[String(seat.seat)];
    const side = place === "left" || place === "right";
    const cx = (x0 + x1) / 2;
    const lines = [];
    lines.push([seat.open ? "—" : seat.name, 30, c.white, "bold"]);
    const tags = [];
    if (!seat.open) tags.push(String(seat.tiles) + " ▮");
    if (seat.robot && !seat.away) tags.push(t("robot"));
    if (seat.away) tags.push(t("away"));
    lines.push([tags.join(" · "), 27, c.muted, "normal"]);
    if (seat.lacks) lines.push([seat.lacks, 27, c.pass, "bold"]);
    let y = side ? (y0 + y1) / 2 - (lines.length - 1) * 19 : y0 + 42;
    for (const [text, size, color, weight] of lines) {
      const node = el("text", { x: cx, y, "text-anchor": "middle", "font-size": size,
                                "font-weight": weight, fill: rgb(color) }, svg);
      node.textContent = fit(text, side ? 11 : 26);
      y += side ? 38 : 36;
    }
  }

  function fit(text, max) {
    const chars = Array.from(text || "");
    return chars.length > max ? chars.slice(0, max - 1).join("") + "…" : chars.join("");
  }

  // ---------------------------------------------------------------- header
  function drawHeader() {
    const table = st.table;
    $("title").textContent = table.caption.split("\n")[0];
    // the points are on the partnerships' own line below the board once play starts
    const playing = table.phase === "playing" || table.phase === "ended";
    const parts = [];
    if (!playing) parts.push(t("score") + " " + table.score.join(" – "));
    parts.push(t("target", { target: table.target }));
    if (table.boneyard_text) parts.push(table.boneyard_text);  // "Pozo: 12" where tiles are drawn
    $("score").textContent = parts.join(" · ");
    $("last").textContent = table.last ? table.seats[table.last.seat].name + ": " + table.last.move : "";
    drawTeams();
    tick();
  }

  // each side's names and points (a partnership, or one seat in individual play), in
  // its colour (the board panels' own)
  function drawTeams() {
    const table = st.table;
    const started = table.phase === "playing" || table.phase === "ended";
    $("teams").hidden = !started;
    if (!started) return;
    // the match's winners once it is over, else the hand's while its end is shown
    const winner = st.winner !== null ? st.winner : (table.outcome ? table.outcome.winner_team : null);
    const box = $("teams");
    while (box.childElementCount > table.teams.length) box.lastElementChild.remove();
    while (box.childElementCount < table.teams.length) {
      const node = document.createElement("div");
      node.className = "team";
      node.id = "team" + box.childElementCount;
      box.appendChild(node);
    }
    table.teams.forEach((names, team) => {
      const node = $("team" + team);
      node.style.setProperty("--team", rgb(table.board.colors.teams[team]));
      node.classList.toggle("winner", winner === team);
      node.replaceChildren();
      const who = document.createElement("span");
      who.className = "names";
      who.textContent = names;
      const points = document.createElement("span");
      points.className = "points";
      points.textContent = String(table.score[team]);
      node.append(who, points);
    });
  }

  // Telegram's colours when the page is a Mini App (light or dark), else the table's own
  function applyTheme() {
    const app = window.Telegram && window.Telegram.WebApp;
    let theme = app && app.themeParams;
    if (!theme && fragment.get("tgWebAppThemeParams")) {
      try { theme = JSON.parse(fragment.get("tgWebAppThemeParams")); } catch (err) { theme = null; }
    }
    if (!theme) return;
    const root = document.documentElement.style;
    if (theme.bg_color) root.setProperty("--bg", theme.bg_color);
    if (theme.secondary_bg_color) root.setProperty("--panel", theme.secondary_bg_color);
    if (theme.text_color) root.setProperty("--white", theme.text_color);
    if (theme.hint_color) root.setProperty("--muted", theme.hint_color);
    const accent = theme.accent_text_color || theme.link_color;
    if (accent) root.setProperty("--accent", accent);
  }

  function ended() { return !!st.table && st.table.phase === "ended"; }

  // my seat while a robot plays for me (I left, or my turns ran out)
  function mySeat() {
    const seat = st.you ? st.you.seat : null;
    return seat !== null && seat !== undefined && st.table ? st.table.seats[seat] : null;
  }
  function away() { const mine = mySeat(); return !!(mine && mine.away); }
  // ... and whether I may still take it back (not once I left a started match for good)
  function mayReturn() { const mine = mySeat(); return !!(mine && mine.away && mine.back_by); }

  // the moves I may make now: none once the match is over, while a robot plays for me,
  // or while my last press is on its way
  // or while my last press is on its way; moves sent for an earlier position (the hand
  // ended on my last tile, or others moved since) are no longer mine to make
  function myMoves() {
    if (!st.hand || ended() || away() || st.pending) return [];
    if (st.table.outcome || st.hand.hand !== st.table.hand || st.hand.move !== st.table.move) {
      return [];
    }
    return st.hand.moves;
  }

  function tick() {
    const table = st.table;
    if (!table) return;
    let text = "";
    if (ended()) {
      text = t("ended");
    } else if (table.turn !== null && table.phase === "playing" && !table.outcome) {
      const seat = table.seats[table.turn];
      const mine = st.hand && st.hand.seat === table.turn && !away();
      text = mine ? t("your_turn") : seat.name;
      if (table.deadline) {
        const left = Math.max(0, Math.ceil(table.deadline - (Date.now() / 1000 + st.offset)));
        // a slow table's turn is hours long: said in hours, not counted in seconds
        text += " · " + (left >= 3600
          ? t("hours", { hours: Math.round(left / 3600) })
          : t("seconds", { seconds: left }));
      }
    }
    $("turn").textContent = text;
  }

  // ---------------------------------------------------------------- hand
  function drawHand() {
    const hand = st.hand;
    const section = $("hand");
    drawActions();
    if (!hand || !st.table) { section.hidden = true; return; }
    section.hidden = false;
    const allowed = myMoves();
    const turn = hand.your_turn && allowed.length > 0;
    section.classList.toggle("your-turn", turn);
    section.classList.toggle("waiting", st.pending);
    $("hand-title").textContent = away() ? (mayReturn() ? t("robot_plays") : t("robot_ends"))
                                         : (turn ? t("your_turn") : t("tiles"));
    const tiles = $("tiles");
    tiles.replaceChildren();
    const board = st.table.board;
    for (const tile of hand.tiles) {
      const moves = allowed.filter((m) => m.tile === tile);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "tile" + (moves.length ? " playable" : "") +
        (st.chosen && st.chosen[0].tile === tile ? " chosen" : "");
      button.disabled = !moves.length;
      button.setAttribute("aria-label", tile);
      button.dataset.tile = tile;
      const svg = el("svg", { viewBox: "0 0 40 80" }, button);
      const [a, b] = tile.split("-").map(Number);
      tileSvg(svg, board, 0, 0, 40, 80, true, a, b, moves.length ? "highlight" : "face");
      button.addEventListener("click", () => choose(moves));
      tiles.appendChild(button);
    }
    const ends = $("ends");
    ends.replaceChildren();
    const passing = allowed.filter((m) => m.tile === null);
    if (st.chosen && st.chosen.length === 2) {
      const note = document.createElement("p");
      note.textContent = t("which_end");
      ends.appendChild(note);
      for (const move of st.chosen) ends.appendChild(actionButton(move.label, () => press(move.payload)));
    } else if (passing.length) {
      ends.appendChild(actionButton(passing[0].label, () => press(passing[0].payload)));  // "Pasar" or "Robar"
    }
    ends.hidden = !ends.childElementCount;
  }

  function choose(moves) {
    if (!moves.length) return;
    if (moves.length === 1) { press(moves[0].payload); return; }
    st.chosen = moves;
    drawHand();
    drawBoard();
  }

  function actionButton(label, onClick) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", onClick);
    return button;
  }

  function drawActions() {
    const seated = st.you && st.you.seated;
    $("actions").hidden = !seated;
    if (!seated) return;
    const emotes = $("emotes");
    if (!emotes.childElementCount) {
      for (const [name, label] of Object.entries(st.texts.emote_labels || {})) {
        emotes.appendChild(actionButton(label, () => send({ emote: name })));
      }
    }
    const over = ended();
    $("leave").textContent = t("leave");
    $("back").textContent = t("back");
    $("back").hidden = over || !mayReturn();
    $("leave").hidden = over || (away() && !mayReturn());
    $("again").textContent = t("again");
    $("again").hidden = !over;
  }

  // ---------------------------------------------------------------- messages
  // one press at a time: a second tap before the server answers sends nothing
  function press(payload) {
    if (st.pending) return;
    st.chosen = null;
    st.pending = send({ press: payload });
    drawHand();
    drawBoard();
  }

  function send(message) {
    if (!st.socket || st.socket.readyState !== WebSocket.OPEN) return false;
    st.socket.send(JSON.stringify(message));
    return true;
  }

  function toast(text) {
    const node = $("toast");
    node.textContent = text;
    node.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { node.hidden = true; }, 6000);
  }

  // a hand's end stays on the page until the next hand starts; the match's end below it
  function showResult(message) {
    $("result").hidden = false;
    if (message.kind === "hand") {
      st.result = message.hand;
      $("hand-result").textContent = message.text;
      drawHandsLeft(message.hands || []);
      $("match-result").hidden = true;
      $("analysis").hidden = true;
      $("analyse").textContent = t("analysis");
      $("analyse").hidden = !(st.you && st.you.seated);
    } else {
      st.winner = message.winner_team;
      if (st.table) drawTeams();
      $("match-result").textContent = message.text;
      $("match-result").hidden = false;
    }
  }

  // every seat's tiles left at a hand's end, turned up, with their pips
  function drawHandsLeft(hands) {
    const box = $("hands-left");
    box.replaceChildren();
    if (!st.table) return;
    for (const seat of hands) {
      const row = document.createElement("div");
      row.className = "left";
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = seat.name;
      row.appendChild(who);
      for (const tile of seat.tiles) {
        const svg = el("svg", { viewBox: "0 0 40 80", "aria-label": tile });
        const [a, b] = tile.split("-").map(Number);
        tileSvg(svg, st.table.board, 0, 0, 40, 80, true, a, b);
        row.appendChild(svg);
      }
      const pips = document.createElement("span");
      pips.className = "pips";
      pips.textContent = String(seat.pips);
      row.appendChild(pips);
      box.appendChild(row);
    }
  }

  function clearResult(table) {
    if (st.result && table.hand > st.result && table.phase === "playing" && !table.outcome) {
      st.result = 0;
      $("result").hidden = true;
      $("analysis").hidden = true;
    }
  }

  function receive(message) {
    switch (message.type) {
      case "welcome":
        st.texts = message.texts;
        st.you = message.you || null;
        document.documentElement.lang = (message.texts && message.language) || document.documentElement.lang;
        $("status").textContent = st.you && !st.you.seated ? t("spectator") : (message.you ? "" : t("spectator"));
        break;
      case "table":
        if (st.table && st.table.move !== message.move) st.pending = false;
        st.table = message;
        st.offset = message.now - Date.now() / 1000;
        document.documentElement.lang = message.language;
        if (st.hand && (st.hand.hand !== message.hand)) st.hand = null;
        clearResult(message);
        drawBoard();
        drawHeader();
        drawHand();
        break;
      case "moved":  // a rematch: this page now shows the new table
        st.you = message.you || null;
        st.hand = null;
        st.chosen = null;
        st.pending = false;
        st.result = 0;
        st.winner = null;
        $("result").hidden = true;
        break;
      case "hand":
        st.hand = message;
        st.chosen = null;
        st.pending = false;
        drawHand();
        drawBoard();
        tick();
        break;
      case "emote":
        toast(message.name + ": " + message.text);
        break;
      case "result":
        showResult(message);
        break;
      case "analysing":
      case "analysis":
        $("analysis").textContent = message.text;
        $("analysis").hidden = false;
        $("analyse").hidden = message.type === "analysis";
        break;
      case "notice":
        toast(message.text);
        break;
      case "closed":
        toast(message.text);
        $("status").textContent = t("gone");
        break;
      case "refused":
        st.pending = false;
        toast(message.text);
        if (st.hand) { drawHand(); drawBoard(); }
        break;
      case "denied":
        st.denied = true;
        $("status").classList.add("error");
        $("status").textContent = message.text;
        break;
      case "gone":
        st.denied = true;
        $("status").classList.add("error");
        $("status").textContent = t("gone") || "—";
        break;
      default:
        break;
    }
  }

  async function connect() {
    let creds = null;
    try {
      creds = inDiscord ? await discordCredentials() : credentials();
    } catch (err) {
      discordLogin = null;  // Discord's consent refused or failed: the next try asks again
    }
    if (!creds) {
      $("status").textContent = "—";
      if (inDiscord) setTimeout(connect, 3000);
      return;
    }
    const base = location.pathname.replace(/[^/]*$/, "") + (inDiscord ? ".proxy/" : "");
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + base + "ws";
    const socket = new WebSocket(url);
    st.socket = socket;
    socket.addEventListener("open", () => {
      st.retry = 0;
      $("status").classList.remove("offline");
      if (!st.denied) $("status").textContent = "";
      socket.send(JSON.stringify({ hello: creds }));
    });
    socket.addEventListener("message", (e) => {
      try { receive(JSON.parse(e.data)); } catch (err) { console.error(err); }
    });
    socket.addEventListener("close", () => {
      if (st.denied) return;
      st.pending = false;
      $("status").classList.add("offline");
      $("status").textContent = t("offline") || "…";
      st.retry = Math.min(st.retry + 1, 5);
      setTimeout(connect, 1000 * st.retry);
    });
  }

  $("leave").addEventListener("click", () => send({ leave: true }));
  $("toast").addEventListener("click", () => { $("toast").hidden = true; });
  $("back").addEventListener("click", () => send({ back: true }));
  $("again").addEventListener("click", () => send({ again: true }));
  $("analyse").addEventListener("click", () => { $("analyse").hidden = true; send({ analysis: true }); });
  setInterval(tick, 250);
  const app = window.Telegram && window.Telegram.WebApp;
  if (app && app.ready) { app.ready(); if (app.expand) app.expand(); }
  applyTheme();
  if (app && app.onEvent) app.onEvent("themeChanged", applyTheme);
  connect();
})();
