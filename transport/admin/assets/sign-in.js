// The sign-in form: posts the password as JSON, then reloads /dashboard (now served the app) on success.
'use strict';

document.getElementById('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const message = document.getElementById('sign-in-message');
  const button = document.getElementById('sign-in-button');
  const input = document.getElementById('password');
  message.textContent = 'Checking…';
  message.className = 'message';
  button.disabled = true;
  try {
    const res = await fetch('/admin/api/sign-in', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: input.value }),
    });
    if (res.ok) {
      location.reload(); // /dashboard now serves the app to this session
      return;
    }
    const problem = await res.json().catch(() => ({}));
    message.className = 'message error';
    if (res.status === 401) message.textContent = 'Wrong password.';
    else if (res.status === 429)
      message.textContent = `Too many wrong passwords: wait ${res.headers.get('retry-after') ?? 'a few'} s and try again.`;
    else if (res.status === 403) message.textContent = 'Refused: this page does not come from the server’s own origin.';
    else message.textContent = problem.detail ?? `Sign-in failed (${res.status}).`;
    input.select();
  } catch {
    message.className = 'message error';
    message.textContent = 'The server cannot be reached.';
  } finally {
    button.disabled = false;
  }
});
