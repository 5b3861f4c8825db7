/* The hosted console: ConIn from stdin, ConOut to stdout, StdErr to stderr, each on a handle
 * of its own with a VenHw(...)/VenUtf8() device path, and the terminal put back at exit. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <ember/lib/guids.h>
#include <ember/core/core.h>
#include <ember/lib/str.h>
#include "console.h"
#include "hosted.h"

/* One vendor GUID per host stream, made for Ember. */
static const EFI_GUID stdin_guid = {
    0xe62dd268, 0xd7a3, 0x4380, {0xbe, 0x7a, 0x73, 0x75, 0xfc, 0x30, 0xf1, 0x17}};
static const EFI_GUID stdout_guid = {
    0x90a73d64, 0xf535, 0x4bb3, {0x9a, 0x3c, 0xd3, 0x6c, 0x2c, 0x5d, 0x45, 0xca}};
static const EFI_GUID stderr_guid = {
    0xfd7bf17a, 0x8202, 0x409e, {0x8e, 0x0d, 0x4d, 0x14, 0x2b, 0x60, 0xde, 0xb1}};

static void set_length(EFI_DEVICE_PATH_PROTOCOL *node, UINT16 length)
{
	node->Length[0] = (UINT8)length;
	node->Length[1] = (UINT8)(length >> 8);
}

void console_path_init(struct console_path *path, const EFI_GUID *device)
{
	path->device.Header.Type = HARDWARE_DEVICE_PATH;
	path->device.Header.SubType = HW_VENDOR_DP;
	set_length(&path->device.Header, sizeof(path->device));
	path->device.Guid = *device;
	path->terminal.Header.Type = MESSAGING_DEVICE_PATH;
	path->terminal.Header.SubType = MSG_VENDOR_DP;
	set_length(&path->terminal.Header, sizeof(path->terminal));
	path->terminal.Guid = efi_vt_utf8_guid;
	path->end.Type = END_DEVICE_PATH_TYPE;
	path->end.SubType = END_ENTIRE_DEVICE_PATH_SUBTYPE;
	set_length(&path->end, sizeof(path->end));
}

bool console_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n > 0) {
			buf += n;
			len -= (size_t)n;
		} else if (n < 0 && errno == EAGAIN) {
			struct pollfd p = {.fd = fd, .events = POLLOUT};
			poll(&p, 1, -1);
		} else if (n < 0 && errno != EINTR) {
			return false;
		}
	}
	return true;
}

void hosted_console_restore(void)
{
	int saved_errno = errno;

	console_out_restore();
	console_in_restore();
	errno = saved_errno;
}

/* Ctrl-C (the terminal keeps ISIG) and friends end ember-run with the terminal restored. */
static void restore_and_die(int sig)
{
	hosted_console_restore();
	raise(sig); /* SA_RESETHAND has put the default action back */
}

/* Ctrl-Z: the shell gets its terminal back while ember-run is stopped, and raw mode
 * returns when it continues. */
static void restore_and_stop(int sig)
{
	int saved_errno = errno;

	hosted_console_restore();
	raise(SIGSTOP);
	console_in_resume();
	errno = saved_errno;
}

/* Installs handler for sig unless someone (the platform, the parent) has chosen already. */
static void catch_signal(int sig, void (*handler)(int), int flags)
{
	struct sigaction act = {.sa_handler = handler, .sa_flags = flags}, old;

	sigemptyset(&act.sa_mask);
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
		sigaction(sig, &act, NULL);
}

static void catch_terminal_signals(void)
{
	catch_signal(SIGINT, restore_and_die, SA_RESETHAND);
	catch_signal(SIGTERM, restore_and_die, SA_RESETHAND);
	catch_signal(SIGHUP, restore_and_die, SA_RESETHAND);
	catch_signal(SIGQUIT, restore_and_die, SA_RESETHAND);
	catch_signal(SIGTSTP, restore_and_stop, SA_RESTART);
}

/* Every exit() puts the terminal back, also those that never reach hosted_exit. */
static void restore_at_exit(void)
{
	hosted_console_restore();
}

/* A failure here ends ember-run; the devices made so far stay installed until then. */
EFI_STATUS hosted_console_init(void)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out, *err;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in;
	EFI_HANDLE in_handle = NULL, out_handle = NULL, err_handle = NULL;
	EFI_STATUS status;

	if (isatty(STDIN_FILENO) || isatty(STDOUT_FILENO) || isatty(STDERR_FILENO))
		catch_terminal_signals();
	atexit(restore_at_exit);
	status = console_in_create(STDIN_FILENO, &stdin_guid, &in_handle, &in);
	if (!EFI_ERROR(status))
		status = console_out_create(STDOUT_FILENO, &stdout_guid, &out_handle, &out);
	if (!EFI_ERROR(status))
		status = console_out_create(STDERR_FILENO, &stderr_guid, &err_handle, &err);
	if (EFI_ERROR(status)) {
		hosted_console_restore();
		return status;
	}
	core_set_console_in(in_handle, in);
	core_set_console_out(out_handle, out);
	core_set_std_err(err_handle, err);
	return EFI_SUCCESS;
}
