/* The USB keyboard driver (HID 1.11 boot protocol): binds to USB interfaces of class 3,
 * subclass 1, protocol 1, and makes the reports of their interrupt endpoint keys of
 * SimpleTextIn and SimpleTextInEx through the shared text input code, with key repeat and
 * the lock lights (SET_REPORT). */
#define LOG_PREFIX "usbkbd: "
#include "hid_endpoint.h"
#include "hid_keys.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/drivers/text_input.h>
#include <ember/lib/guids.h>
#include <efi/protocol/usb_io.h>

#define KBD_SIGNATURE 0x64626b75u /* "ukbd" */
#define HID_CLASS 3
#define HID_SUBCLASS_BOOT 1
#define HID_PROTOCOL_KEYBOARD 1
#define HID_SET_REPORT 0x09
#define HID_SET_IDLE 0x0a
#define HID_SET_PROTOCOL 0x0b
#define HID_OUTPUT_REPORT 0x0200
#define CLASS_TO_INTERFACE (USB_REQ_TYPE_CLASS | USB_TARGET_INTERFACE)
#define REPEAT_DELAY_NS (500 * 1000000ULL)
#define REPEAT_RATE_NS (33 * 1000000ULL)
#define REQUEST_TIMEOUT_MS 100

struct usb_kbd {
	UINT32 signature;
	struct text_input input;
	struct hid_keys keys;
	EFI_USB_IO_PROTOCOL *io;
	EFI_HANDLE controller, driver;
	struct hid_endpoint ep;
	UINT64 repeat_at; /* when the held key repeats next */
};

static EFI_STATUS class_request(struct usb_kbd *kb, UINT8 request, UINT16 value, void *data,
				UINTN length)
{
	EFI_USB_DEVICE_REQUEST req = {CLASS_TO_INTERFACE, request, value, kb->ep.interface,
				      (UINT16)length};
	UINT32 result;

	return kb->io->UsbControlTransfer(kb->io, &req, length ? EfiUsbDataOut : EfiUsbNoData,
					  REQUEST_TIMEOUT_MS, length ? data : NULL, length,
					  &result);
}

static void set_leds(struct usb_kbd *kb)
{
	UINT8 leds = hid_keys_leds(&kb->keys);

	class_request(kb, HID_SET_REPORT, HID_OUTPUT_REPORT, &leds, 1);
}

static EFI_STATUS EFIAPI report_arrived(void *data, UINTN length, void *context, UINT32 result)
{
	struct usb_kbd *kb = context;
	EFI_KEY_DATA keys[HID_KEYS_MAX];
	UINTN count;
	UINT32 flags;
	EFI_TPL old;

	if (result != EFI_USB_NOERROR)
		return EFI_DEVICE_ERROR;
	old = tpl_raise(TPL_NOTIFY);
	flags = hid_keys_report(&kb->keys, data, length, keys, HID_KEYS_MAX, &count);
	for (UINTN i = 0; i < count; i++)
		text_input_push(&kb->input, &keys[i]);
	if (flags & HID_REPEAT_STARTED)
		kb->repeat_at = core_time_ns() + REPEAT_DELAY_NS;
	kb->input.toggle_state = EFI_TOGGLE_STATE_VALID | kb->keys.toggle_state;
	tpl_restore(old);
	if (flags & HID_LOCKS_CHANGED)
		set_leds(kb);
	return EFI_SUCCESS;
}

/* The reports come by themselves; polling only repeats the key held. */
static void kbd_poll(struct text_input *ti)
{
	struct usb_kbd *kb = container_of(ti, struct usb_kbd, input);
	UINT64 now = core_time_ns();
	EFI_KEY_DATA key;

	if (!kb->keys.repeat || now < kb->repeat_at || !text_input_room(ti))
		return;
	if (hid_keys_key(&kb->keys, kb->keys.repeat, &key))
		text_input_push(ti, &key);
	kb->repeat_at = now + REPEAT_RATE_NS;
}

static EFI_STATUS kbd_set_state(struct text_input *ti, EFI_KEY_TOGGLE_STATE state)
{
	struct usb_kbd *kb = container_of(ti, struct usb_kbd, input);

	kb->keys.toggle_state =
	    state & (EFI_SCROLL_LOCK_ACTIVE | EFI_NUM_LOCK_ACTIVE | EFI_CAPS_LOCK_ACTIVE);
	set_leds(kb);
	return EFI_SUCCESS;
}

static const struct text_input_ops kbd_ops = {
    .poll = kbd_poll,
    .set_state = kbd_set_state,
};

static bool is_boot_keyboard(void *interface)
{
	EFI_USB_IO_PROTOCOL *io = interface;
	EFI_USB_INTERFACE_DESCRIPTOR d;

	return !EFI_ERROR(io->UsbGetInterfaceDescriptor(io, &d)) && d.InterfaceClass == HID_CLASS &&
	       d.InterfaceSubClass == HID_SUBCLASS_BOOT &&
	       d.InterfaceProtocol == HID_PROTOCOL_KEYBOARD;
}

static EFI_STATUS EFIAPI kbd_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_usb_io_protocol_guid,
			       is_boot_keyboard);
}

static EFI_STATUS kbd_setup(struct usb_kbd *kb)
{
	EFI_STATUS status = hid_interrupt_in(kb->io, &kb->ep);

	if (EFI_ERROR(status)) {
		log_debug("no interrupt endpoint\n");
		return status;
	}
	status = class_request(kb, HID_SET_PROTOCOL, 0, NULL, 0); /* boot protocol */
	if (EFI_ERROR(status)) {
		log_debug("SET_PROTOCOL: %r\n", status);
		return status;
	}
	class_request(kb, HID_SET_IDLE, 0, NULL, 0); /* optional for keyboards */
	hid_keys_init(&kb->keys);
	set_leds(kb);
	return text_input_init(&kb->input, &kbd_ops, true);
}

static EFI_STATUS kbd_publish(struct usb_kbd *kb)
{
	EFI_STATUS status;

	status = protocol_install_multiple(&kb->controller, &efi_simple_text_input_protocol_guid,
					   &kb->input.in, &efi_simple_text_input_ex_protocol_guid,
					   &kb->input.in_ex, NULL);
	if (EFI_ERROR(status)) {
		log_debug("cannot install SimpleTextIn: %r\n", status);
		return status;
	}
	status = kb->io->UsbAsyncInterruptTransfer(kb->io, kb->ep.address, TRUE, kb->ep.interval,
						   HID_BOOT_REPORT_SIZE, report_arrived, kb);
	if (EFI_ERROR(status)) {
		log_debug("interrupt transfer: %r\n", status);
		protocol_uninstall_multiple(kb->controller, &efi_simple_text_input_protocol_guid,
					    &kb->input.in, &efi_simple_text_input_ex_protocol_guid,
					    &kb->input.in_ex, NULL);
	}
	return status;
}

static EFI_STATUS EFIAPI kbd_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct usb_kbd *kb = pool_alloc(sizeof(*kb));
	EFI_STATUS status;

	if (!kb)
		return EFI_OUT_OF_RESOURCES;
	kb->controller = controller;
	kb->driver = this->DriverBindingHandle;
	status = protocol_open(controller, &efi_usb_io_protocol_guid, (void **)&kb->io, kb->driver,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status))
		goto err_free;
	status = kbd_setup(kb);
	if (EFI_ERROR(status))
		goto err_close;
	kb->signature = KBD_SIGNATURE;
	status = kbd_publish(kb);
	if (EFI_ERROR(status))
		goto err_input;
	log_info("keyboard ready\n");
	return EFI_SUCCESS;

err_input:
	kb->signature = 0;
	text_input_fini(&kb->input);
err_close:
	protocol_close(controller, &efi_usb_io_protocol_guid, kb->driver, controller);
err_free:
	pool_free(kb);
	return status;
}

static struct usb_kbd *kbd_on(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in;
	struct text_input *ti;
	struct usb_kbd *kb;

	if (EFI_ERROR(protocol_open(controller, &efi_simple_text_input_protocol_guid, (void **)&in,
				    this->DriverBindingHandle, controller,
				    EFI_OPEN_PROTOCOL_GET_PROTOCOL)))
		return NULL;
	ti = text_input_from_in(in);
	if (!ti)
		return NULL;
	kb = container_of(ti, struct usb_kbd, input);
	return kb->signature == KBD_SIGNATURE && kb->driver == this->DriverBindingHandle ? kb
											 : NULL;
}

static EFI_STATUS EFIAPI kbd_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  UINTN child_count, EFI_HANDLE *children)
{
	struct usb_kbd *kb = kbd_on(this, controller);
	EFI_STATUS status;

	if (!kb)
		return EFI_UNSUPPORTED;
	status = protocol_uninstall_multiple(controller, &efi_simple_text_input_protocol_guid,
					     &kb->input.in, &efi_simple_text_input_ex_protocol_guid,
					     &kb->input.in_ex, NULL);
	if (EFI_ERROR(status))
		return status;
	kb->io->UsbAsyncInterruptTransfer(kb->io, kb->ep.address, FALSE, 0, 0, NULL, NULL);
	kb->signature = 0;
	text_input_fini(&kb->input);
	protocol_close(controller, &efi_usb_io_protocol_guid, kb->driver, controller);
	pool_free(kb);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL kbd_binding;

static EFI_STATUS EFIAPI kbd_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					     EFI_HANDLE controller, EFI_HANDLE child,
					     CHAR8 *language, CHAR16 **name)
{
	if (child || !kbd_on(&kbd_binding, controller))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)u"USB Keyboard";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL kbd_binding = {
    .Supported = kbd_supported,
    .Start = kbd_start,
    .Stop = kbd_stop,
    .Version = 0x10,
};

static const struct ember_driver kbd_driver = {
    .name = u"USB Keyboard Driver",
    .binding = &kbd_binding,
    .controller_name = kbd_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, kbd_driver);
