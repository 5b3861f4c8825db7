/* EFI_SIMPLE_TEXT_INPUT_PROTOCOL (UEFI 2.10, 12.3) and EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL
 * (12.2) on one handle, reading a host file descriptor: the shared text input library
 * (drivers/text_input) over keys decoded by lib/term_keys.c. A terminal is put in raw mode
 * (no echo, no line editing, but Ctrl-C still interrupts); a pipe or file is read as typed
 * keys. Bytes are read only when someone asks (ReadKeyStroke, the WaitForKey events, the
 * key notification timer), with poll(2) so nothing ever blocks; at end of input there are
 * simply no more keys, as with a keyboard nobody types on, and Ember's text input state
 * protocol (ember/drivers/text_input_state.h) says so, and whether stdin is a terminal. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <ember/core/core.h>
#include <ember/core/platform.h>
#include <ember/lib/term_keys.h>
#include <ember/drivers/text_input.h>
#include <ember/drivers/text_input_state.h>
#include "console.h"
#include <ember/lib/guids.h>

struct con_in {
	struct text_input input;
	int fd;
	bool tty, eof;
	EFI_HANDLE handle;
	struct console_path path;
	struct term_keys decoder;
	EMBER_TEXT_INPUT_STATE_PROTOCOL state;
};

/* The terminal's own mode and ours; raw_fd is the descriptor we changed (-1: none). */
static struct termios saved_termios, raw_termios;
static int raw_fd = -1;
static volatile sig_atomic_t raw_active;

/* ---- Reading input (callers hold TPL_NOTIFY) ---- */

/* Reads what is waiting on the descriptor, at most what the queue can take. Every key uses
 * up at least one byte except those of a pending sequence, so keeping TERM_KEYS_OUT_MAX
 * slots back means the queue never overflows. */
static void read_available(struct con_in *c)
{
	UINT8 buf[64];
	struct term_key keys[TERM_KEYS_OUT_MAX];

	while (!c->eof && text_input_room(&c->input) > TERM_KEYS_OUT_MAX) {
		struct pollfd p = {.fd = c->fd, .events = POLLIN};
		size_t room = text_input_room(&c->input) - TERM_KEYS_OUT_MAX;
		ssize_t n;

		if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
			return;
		n = read(c->fd, buf, MIN(room, sizeof(buf)));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		if (n <= 0) {
			c->eof = true; /* end of input, or a descriptor that cannot be read */
			return;
		}
		for (ssize_t i = 0; i < n; i++)
			text_input_push_term_keys(
			    &c->input, keys,
			    term_keys_feed(&c->decoder, buf[i], plat_monotonic_ns(), keys));
	}
}

/* Reads input and settles an escape sequence that has waited long enough. */
static void con_in_poll(struct text_input *ti)
{
	struct con_in *c = container_of(ti, struct con_in, input);
	struct term_key keys[TERM_KEYS_OUT_MAX];

	read_available(c);
	text_input_push_term_keys(ti, keys,
				  term_keys_flush(&c->decoder, plat_monotonic_ns(), c->eof, keys));
	c->state.Ended = c->eof;
}

/* Reset empties the queue of a terminal (keys typed before the reset are stale; see
 * reset_keeps_keys) and starts its decoder over. Piped input is a script fed ahead of time,
 * so nothing of it is thrown away. */
static EFI_STATUS con_in_reset(struct text_input *ti, bool extended_verification)
{
	struct con_in *c = container_of(ti, struct con_in, input);

	if (c->tty)
		term_keys_init(&c->decoder);
	return EFI_SUCCESS;
}

/* A terminal has no lock lights to set: SetState's state is only reported back with keys. */
static const struct text_input_ops con_in_ops = {
    .poll = con_in_poll,
    .reset = con_in_reset,
};

/* ---- Creation and exit ---- */

/* Raw mode: keys arrive one by one and unechoed; ISIG stays so Ctrl-C ends ember-run,
 * and output processing is left alone. */
static void enter_raw_mode(int fd)
{
	if (tcgetattr(fd, &saved_termios) != 0)
		return;
	raw_termios = saved_termios;
	raw_termios.c_lflag &= ~(tcflag_t)(ICANON | ECHO | IEXTEN);
	raw_termios.c_iflag &= ~(tcflag_t)(IXON | ICRNL | INLCR | IGNCR);
	raw_termios.c_cc[VMIN] = 1;
	raw_termios.c_cc[VTIME] = 0;
	raw_fd = fd;
	console_in_resume();
}

void console_in_restore(void)
{
	if (raw_active) {
		tcsetattr(raw_fd, TCSANOW, &saved_termios);
		raw_active = 0;
	}
}

void console_in_resume(void)
{
	if (raw_fd >= 0 && !raw_active && tcsetattr(raw_fd, TCSANOW, &raw_termios) == 0)
		raw_active = 1;
}

EFI_STATUS console_in_create(int fd, const EFI_GUID *device, EFI_HANDLE *handle,
			     EFI_SIMPLE_TEXT_INPUT_PROTOCOL **in)
{
	struct con_in *c = pool_alloc(sizeof(*c));
	EFI_STATUS status;

	if (!c)
		return EFI_OUT_OF_RESOURCES;
	status = text_input_init(&c->input, &con_in_ops, false);
	if (EFI_ERROR(status))
		goto err_free;
	c->fd = fd;
	c->tty = isatty(fd);
	c->input.reset_keeps_keys = !c->tty;
	c->state =
	    (EMBER_TEXT_INPUT_STATE_PROTOCOL){EMBER_TEXT_INPUT_STATE_REVISION, c->tty, false};
	term_keys_init(&c->decoder);
	console_path_init(&c->path, device);
	status =
	    protocol_install_multiple(&c->handle, &efi_simple_text_input_protocol_guid,
				      &c->input.in, &efi_simple_text_input_ex_protocol_guid,
				      &c->input.in_ex, &efi_device_path_protocol_guid, &c->path,
				      &ember_text_input_state_protocol_guid, &c->state, NULL);
	if (EFI_ERROR(status))
		goto err_input;
	if (c->tty)
		enter_raw_mode(fd);
	*handle = c->handle;
	*in = &c->input.in;
	return EFI_SUCCESS;

err_input:
	text_input_fini(&c->input);
err_free:
	pool_free(c);
	return status;
}
