/* The PS/2 keyboard behind QEMU's i8042 as SimpleTextIn and SimpleTextInEx, on a handle
 * with OVMF's device path for it (PciRoot(0x0)/Pci(LPC)/Acpi(PNP0303,0)). The controller
 * translates to scan code set 1 (platform/qemu-x86_64/pure/ps2_keys.c decodes it); no interrupt: a
 * timer polls. Mouse bytes read here go to the mouse driver (ps2_mouse.c). */
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include "pure/ps2_keys.h"
#include <ember/drivers/text_input.h>
#include "cpu/io.h"
#include "chipset/isa.h"
#include "devices/i8042.h"
#include <ember/lib/guids.h>

#define CMD_READ_CONFIG 0x20
#define CMD_WRITE_CONFIG 0x60
#define CMD_DISABLE_AUX 0xa7
#define CMD_DISABLE_KBD 0xad
#define CMD_ENABLE_KBD 0xae
#define CONFIG_KBD_IRQ 0x01
#define CONFIG_AUX_IRQ 0x02
#define CONFIG_KBD_CLOCK_OFF 0x10
#define CONFIG_TRANSLATE 0x40

#define KBD_SET_LEDS 0xed
#define KBD_ENABLE_SCANNING 0xf4
#define KBD_RESET 0xff
#define KBD_ACK 0xfa
#define KBD_SELF_TEST_PASSED 0xaa

#define PNP_KEYBOARD 0x0303

struct ps2_keyboard {
	struct text_input input;
	struct ps2_keys decoder;
	struct isa_device_path path;
	EFI_HANDLE handle;
};

static struct ps2_keyboard keyboard;

/* A command to the keyboard itself, acknowledged with 0xfa. */
static bool keyboard_command(UINT8 command)
{
	UINT8 reply;

	return i8042_write(I8042_DATA, command) && i8042_read(&reply, NULL) && reply == KBD_ACK;
}

static void flush_output(void)
{
	for (int i = 0; i < 32 && (inb(I8042_STATUS) & I8042_STATUS_OUTPUT_FULL); i++)
		inb(I8042_DATA);
}

/* Ports off, translation on, no interrupts, then a keyboard reset and scanning on. */
static bool controller_init(void)
{
	UINT8 config, reply;

	if (inb(I8042_STATUS) == 0xff)
		return false; /* no controller */
	if (!i8042_write(I8042_COMMAND, CMD_DISABLE_KBD) ||
	    !i8042_write(I8042_COMMAND, CMD_DISABLE_AUX))
		return false;
	flush_output();
	if (!i8042_write(I8042_COMMAND, CMD_READ_CONFIG) || !i8042_read(&config, NULL))
		return false;
	config &= (UINT8) ~(CONFIG_KBD_IRQ | CONFIG_AUX_IRQ | CONFIG_KBD_CLOCK_OFF);
	config |= CONFIG_TRANSLATE;
	if (!i8042_write(I8042_COMMAND, CMD_WRITE_CONFIG) || !i8042_write(I8042_DATA, config) ||
	    !i8042_write(I8042_COMMAND, CMD_ENABLE_KBD))
		return false;
	if (!keyboard_command(KBD_RESET) || !i8042_read(&reply, NULL) ||
	    reply != KBD_SELF_TEST_PASSED)
		log_warn("ps2: keyboard reset not confirmed\n");
	return keyboard_command(KBD_ENABLE_SCANNING);
}

/* The lights follow the lock states; the keyboard's ACKs arrive later with the keys and
 * are dropped by the decoder. */
static void set_leds(struct ps2_keyboard *kb)
{
	if (i8042_write(I8042_DATA, KBD_SET_LEDS))
		i8042_write(I8042_DATA, ps2_keys_leds(&kb->decoder));
}

/* One byte from the keyboard into the key queue. */
static void keyboard_byte(struct ps2_keyboard *kb, UINT8 byte)
{
	struct text_input *ti = &kb->input;
	EFI_KEY_DATA key;
	UINT32 what = ps2_keys_feed(&kb->decoder, byte, &key);

	if (what & PS2_LOCKS_CHANGED) {
		ti->toggle_state = EFI_TOGGLE_STATE_VALID | kb->decoder.toggle_state;
		set_leds(kb);
	}
	if (what & PS2_KEY)
		text_input_push(ti, &key);
}

void ps2_keyboard_feed(UINT8 byte)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	if (keyboard.handle && text_input_room(&keyboard.input))
		keyboard_byte(&keyboard, byte);
	tpl_restore(old);
}

static void ps2_poll(struct text_input *ti)
{
	struct ps2_keyboard *kb = container_of(ti, struct ps2_keyboard, input);
	UINT8 status;

	while (text_input_room(ti) && ((status = inb(I8042_STATUS)) & I8042_STATUS_OUTPUT_FULL)) {
		UINT8 byte = inb(I8042_DATA);

		if (status & I8042_STATUS_AUX_DATA)
			ps2_mouse_feed(byte);
		else
			keyboard_byte(kb, byte);
	}
}

static EFI_STATUS ps2_set_state(struct text_input *ti, EFI_KEY_TOGGLE_STATE state)
{
	struct ps2_keyboard *kb = container_of(ti, struct ps2_keyboard, input);

	kb->decoder.toggle_state =
	    state & (EFI_SCROLL_LOCK_ACTIVE | EFI_NUM_LOCK_ACTIVE | EFI_CAPS_LOCK_ACTIVE);
	set_leds(kb);
	return EFI_SUCCESS;
}

static const struct text_input_ops ps2_input_ops = {
    .poll = ps2_poll,
    .set_state = ps2_set_state,
};

/* Finds the keyboard and puts it on a handle; no controller is no error. */
static EFI_STATUS ps2_keyboard_publish(void)
{
	struct ps2_keyboard *kb = &keyboard;
	EFI_STATUS status;
	CHAR16 *text;

	if (!controller_init()) {
		log_info("ps2: no keyboard\n");
		return EFI_SUCCESS;
	}
	ps2_keys_init(&kb->decoder);
	status = text_input_init(&kb->input, &ps2_input_ops, true);
	if (EFI_ERROR(status))
		return status;
	isa_device_path_init(&kb->path, PNP_KEYBOARD, 0);
	status = protocol_install_multiple(&kb->handle, &efi_device_path_protocol_guid, &kb->path,
					   &efi_simple_text_input_protocol_guid, &kb->input.in,
					   &efi_simple_text_input_ex_protocol_guid,
					   &kb->input.in_ex, NULL);
	if (EFI_ERROR(status)) {
		text_input_fini(&kb->input);
		return status;
	}
	text = dp_to_text(&kb->path.root.Header, false, true);
	log_info("ps2: keyboard ready at %ls\n", text ? text : u"?");
	pool_free(text);
	return EFI_SUCCESS;
}
EMBER_INIT(INIT_CONSOLE, ps2_keyboard_publish);
