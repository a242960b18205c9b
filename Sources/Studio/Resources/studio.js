// Placeholder script: the studio's real page replaces this file (same name).
// It redraws frame 0 on each reload event and shows the error of an invalid save.
const frame = document.getElementById("frame");
const errorBox = document.getElementById("error");
const events = new EventSource("/events");
events.addEventListener("reload", (message) => {
  const reload = JSON.parse(message.data);
  frame.src = "/frame/0.png?v=" + reload.version;
  errorBox.hidden = true;
});
events.addEventListener("error", (message) => {
  if (!message.data) return;
  const report = JSON.parse(message.data);
  errorBox.textContent = report.problems
    .map((p) => `${p.place}: ${p.message} (line ${p.line}, column ${p.column})`)
    .join("\n") || report.message;
  errorBox.hidden = false;
});
