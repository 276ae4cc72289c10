/**
 * The development mailbox page: asks for an address and lists its mail from `/api/dev/mail`.
 * HTML bodies are shown in sandboxed frames, so a mail's markup cannot script this page.
 */
export const devMailPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev mailbox · Lattice Exchange</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem }
article { border: 1px solid #cbd5e1; border-radius: 6px; margin: 1rem 0; padding: 0.5rem 1rem }
iframe { width: 100%; height: 18rem; border: 0; background: #fff }
.meta { color: #64748b; font-size: 0.9rem }
</style></head>
<body>
<h1>Development mailbox</h1>
<form id="form"><label>E-mail <input id="to" type="email" required size="40"></label>
<button type="submit">Show mail</button></form>
<p id="status" class="meta"></p>
<div id="mails"></div>
<script type="module">
const form = document.getElementById('form');
const input = document.getElementById('to');
const status = document.getElementById('status');
const list = document.getElementById('mails');
async function show(to) {
  history.replaceState(null, '', '?to=' + encodeURIComponent(to));
  const response = await fetch('/api/dev/mail?to=' + encodeURIComponent(to));
  const mails = response.ok ? await response.json() : [];
  status.textContent = response.ok ? mails.length + ' mail(s) to ' + to : 'Error ' + response.status;
  list.replaceChildren(...mails.map((mail) => {
    const article = document.createElement('article');
    const title = document.createElement('h2');
    title.textContent = mail.subject;
    const meta = document.createElement('p');
    meta.className = 'meta';
    meta.textContent = new Date(mail.createdAt * 1000).toLocaleString() + ' · #' + mail.id;
    const frame = document.createElement('iframe');
    frame.sandbox = '';
    frame.srcdoc = mail.html;
    article.append(title, meta, frame);
    return article;
  }));
}
form.addEventListener('submit', (event) => { event.preventDefault(); show(input.value); });
const initial = new URLSearchParams(location.search).get('to');
if (initial) { input.value = initial; show(initial); }
</script>
</body></html>
`;
