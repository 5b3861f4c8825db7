/* The PS/2 mouse on the i8042's auxiliary port as EFI_SIMPLE_POINTER_PROTOCOL (UEFI 2.10,
 * 12.5), on a handle with OVMF's device path for it (PciRoot(0x0)/Pci(LPC)/Acpi(PNP0F03,0)).
 * The mouse keeps its defaults (standard three-byte packets, decoded by
 * platform/qemu-x86_64/pure/ps2_mouse_packet.c, at 4 counts per millimetre) with data
 * reporting on. No interrupt: GetState and WaitForInput read the controller's mouse bytes,
 * and the keyboard driver, which polls on a timer, hands over those it reads. */
#define LOG_PREFIX "ps2: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <efi/protocol/simple_pointer.h>
#include "pure/ps2_mouse_packet.h"
#include "cpu/io.h"
#include "chipset/isa.h"
#include "devices/i8042.h"
#include <ember/lib/guids.h>

#define CMD_DISABLE_AUX 0xa7
#define CMD_ENABLE_AUX 0xa8
#define CMD_DISABLE_KBD 0xad
#define CMD_ENABLE_KBD 0xae
#define CMD_WRITE_AUX 0xd4 /* the next data byte goes to the mouse */

#define AUX_SET_DEFAULTS 0xf6
#define AUX_ENABLE_REPORTING 0xf4
#define AUX_ACK 0xfa

#define PNP_PS2_MOUSE 0x0f03
#define COUNTS_PER_MM 4 /* the mouse's default resolution */
#define REPLY_BYTES 16	/* keyboard bytes that may come before the mouse's reply */

struct ps2_mouse {
	EFI_SIMPLE_POINTER_PROTOCOL pointer;
	EFI_SIMPLE_POINTER_MODE mode;
	struct ps2_mouse_packet packet;
	INT32 dx, dy;	  /* motion since the last GetState */
	bool left, right; /* the buttons now */
	bool changed;	  /* something to report */
	struct isa_device_path path;
	EFI_HANDLE handle;
};

static struct ps2_mouse mouse;

/* Adds without wrapping: a motion nobody reads for long stays at the extreme. */
static INT32 add_clamped(INT32 a, INT32 b)
{
	INT64 sum = (INT64)a + b;

	return sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : (INT32)sum;
}

void ps2_mouse_feed(UINT8 byte)
{
	struct ps2_mouse_motion m;

	if (!mouse.handle || !ps2_mouse_packet_feed(&mouse.packet, byte, &m))
		return;
	mouse.dx = add_clamped(mouse.dx, m.dx);
	mouse.dy = add_clamped(mouse.dy, m.dy);
	mouse.changed |= m.dx || m.dy || m.left != mouse.left || m.right != mouse.right;
	mouse.left = m.left;
	mouse.right = m.right;
}

/* Reads the mouse's bytes waiting in the controller; stops at a keyboard byte, which the
 * keyboard driver's poll takes. Callers hold TPL_NOTIFY. */
static void poll_mouse(void)
{
	UINT8 status;

	while (((status = inb(I8042_STATUS)) & I8042_STATUS_OUTPUT_FULL) &&
	       (status & I8042_STATUS_AUX_DATA))
		ps2_mouse_feed(inb(I8042_DATA));
}

static EFI_STATUS EFIAPI mouse_get_state(EFI_SIMPLE_POINTER_PROTOCOL *this,
					 EFI_SIMPLE_POINTER_STATE *state)
{
	EFI_STATUS status = EFI_NOT_READY;
	EFI_TPL old;

	if (this != &mouse.pointer || !state)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	poll_mouse();
	if (mouse.changed) {
		*state = (EFI_SIMPLE_POINTER_STATE){mouse.dx, mouse.dy, 0, mouse.left, mouse.right};
		mouse.dx = mouse.dy = 0;
		mouse.changed = false;
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

/* Forgets the motion not yet read and any half-read packet. */
static EFI_STATUS EFIAPI mouse_reset(EFI_SIMPLE_POINTER_PROTOCOL *this, BOOLEAN extended)
{
	EFI_TPL old;

	if (this != &mouse.pointer)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	poll_mouse();
	ps2_mouse_packet_init(&mouse.packet);
	mouse.dx = mouse.dy = 0;
	mouse.changed = false;
	tpl_restore(old);
	return EFI_SUCCESS;
}

static void EFIAPI mouse_wait_notify(EFI_EVENT event, void *context)
{
	poll_mouse();
	if (mouse.changed)
		event_signal(event);
}

/* A command to the mouse, acknowledged with 0xfa; keyboard bytes read meanwhile are the
 * keyboard's. */
static bool aux_command(UINT8 command)
{
	UINT8 reply;
	bool aux;

	if (!i8042_write(I8042_COMMAND, CMD_WRITE_AUX) || !i8042_write(I8042_DATA, command))
		return false;
	for (int i = 0; i < REPLY_BYTES; i++) {
		if (!i8042_read(&reply, &aux))
			return false;
		if (aux)
			return reply == AUX_ACK;
		ps2_keyboard_feed(reply);
	}
	return false;
}

/* Port on, defaults, reporting on; the keyboard's port is off meanwhile, so its keys wait
 * in the keyboard and none is taken for a reply. */
static bool mouse_init(void)
{
	bool ok;

	if (inb(I8042_STATUS) == 0xff || !i8042_write(I8042_COMMAND, CMD_DISABLE_KBD))
		return false;
	ok = i8042_write(I8042_COMMAND, CMD_ENABLE_AUX) && aux_command(AUX_SET_DEFAULTS) &&
	     aux_command(AUX_ENABLE_REPORTING);
	if (!ok)
		i8042_write(I8042_COMMAND, CMD_DISABLE_AUX);
	i8042_write(I8042_COMMAND, CMD_ENABLE_KBD);
	return ok;
}

static EFI_STATUS mouse_install(struct ps2_mouse *m)
{
	EFI_STATUS status;

	m->mode = (EFI_SIMPLE_POINTER_MODE){COUNTS_PER_MM, COUNTS_PER_MM, 0, true, true};
	m->pointer = (EFI_SIMPLE_POINTER_PROTOCOL){mouse_reset, mouse_get_state, NULL, &m->mode};
	status = event_create(EVT_NOTIFY_WAIT, TPL_NOTIFY, mouse_wait_notify, NULL, NULL,
			      &m->pointer.WaitForInput);
	if (EFI_ERROR(status))
		return status;
	isa_device_path_init(&m->path, PNP_PS2_MOUSE, 0);
	status = protocol_install_multiple(&m->handle, &efi_device_path_protocol_guid, &m->path,
					   &efi_simple_pointer_protocol_guid, &m->pointer, NULL);
	if (EFI_ERROR(status)) {
		event_close(m->pointer.WaitForInput);
		m->handle = NULL;
	}
	return status;
}

/* Finds the mouse and puts it on a handle; no mouse is no error. */
static EFI_STATUS ps2_mouse_publish(void)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY); /* the keyboard's poll stays out meanwhile */
	bool found = mouse_init();
	EFI_STATUS status;

	ps2_mouse_packet_init(&mouse.packet);
	tpl_restore(old);
	if (!found) {
		log_info("no mouse\n");
		return EFI_SUCCESS;
	}
	status = mouse_install(&mouse);
	if (EFI_ERROR(status)) {
		log_debug("installing the mouse: %r\n", status);
		return status;
	}
	log_info("mouse ready\n");
	return EFI_SUCCESS;
}
EMBER_INIT(INIT_CONSOLE, ps2_mouse_publish);
