/* The USB pointer driver: binds to HID interfaces whose report descriptor (HID 1.11, 6.2.2)
 * has X and Y, and makes their reports EFI_ABSOLUTE_POINTER_PROTOCOL (a tablet: absolute X
 * and Y, UEFI 2.10 12.7) or EFI_SIMPLE_POINTER_PROTOCOL (a mouse: movements, 12.5). */
#define LOG_PREFIX "usbptr: "
#include "hid_endpoint.h"
#include "hid_report.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include <efi/protocol/absolute_pointer.h>
#include <efi/protocol/simple_pointer.h>
#include <efi/protocol/usb_io.h>

#define POINTER_SIGNATURE 0x72747075u /* "uptr" */
#define HID_CLASS 3
#define REPORT_DESC_BYTES 256
#define REQUEST_TIMEOUT_MS 100

struct usb_pointer {
	UINT32 signature;
	EFI_ABSOLUTE_POINTER_PROTOCOL abs;
	EFI_ABSOLUTE_POINTER_MODE abs_mode;
	EFI_ABSOLUTE_POINTER_STATE abs_state;
	EFI_SIMPLE_POINTER_PROTOCOL simple;
	EFI_SIMPLE_POINTER_MODE simple_mode;
	EFI_SIMPLE_POINTER_STATE simple_state;
	bool changed;
	struct hid_pointer layout;
	EFI_USB_IO_PROTOCOL *io;
	EFI_HANDLE controller, driver;
	struct hid_endpoint ep;
};

static const EFI_GUID *protocol_of(struct usb_pointer *p)
{
	return p->layout.relative ? &efi_simple_pointer_protocol_guid
				  : &efi_absolute_pointer_protocol_guid;
}

static void *interface_of(struct usb_pointer *p)
{
	return p->layout.relative ? (void *)&p->simple : (void *)&p->abs;
}

static bool button(struct usb_pointer *p, const UINT8 *r, UINTN len, UINTN i)
{
	INT32 v = 0;

	return hid_report_value(r, len, &p->layout.buttons[i], &v) && v;
}

static void take_report(struct usb_pointer *p, const UINT8 *r, UINTN len)
{
	INT32 x = 0, y = 0, z = 0;

	if (!hid_report_value(r, len, &p->layout.x, &x) ||
	    !hid_report_value(r, len, &p->layout.y, &y))
		return;
	hid_report_value(r, len, &p->layout.wheel, &z);
	if (p->layout.relative) {
		p->simple_state.RelativeMovementX += x;
		p->simple_state.RelativeMovementY += y;
		p->simple_state.RelativeMovementZ += z;
		p->simple_state.LeftButton = button(p, r, len, 0);
		p->simple_state.RightButton = button(p, r, len, 1);
	} else {
		p->abs_state.CurrentX = (UINT64)(x > p->layout.x.min ? x : p->layout.x.min);
		p->abs_state.CurrentY = (UINT64)(y > p->layout.y.min ? y : p->layout.y.min);
		p->abs_state.ActiveButtons = (button(p, r, len, 0) ? EFI_ABSP_TouchActive : 0) |
					     (button(p, r, len, 1) ? EFI_ABS_AltActive : 0);
	}
	p->changed = true;
}

static EFI_STATUS EFIAPI report_arrived(void *data, UINTN length, void *context, UINT32 result)
{
	struct usb_pointer *p = context;
	const UINT8 *r = data;
	EFI_TPL old;

	if (result != EFI_USB_NOERROR)
		return EFI_DEVICE_ERROR;
	if (p->layout.report_id) {
		if (!length || r[0] != p->layout.report_id)
			return EFI_SUCCESS; /* another report of the device */
		r++;
		length--;
	}
	old = tpl_raise(TPL_NOTIFY);
	take_report(p, r, length);
	tpl_restore(old);
	return EFI_SUCCESS;
}

static struct usb_pointer *from_abs(EFI_ABSOLUTE_POINTER_PROTOCOL *this)
{
	struct usb_pointer *p = this ? container_of(this, struct usb_pointer, abs) : NULL;

	return p && p->signature == POINTER_SIGNATURE ? p : NULL;
}

static struct usb_pointer *from_simple(EFI_SIMPLE_POINTER_PROTOCOL *this)
{
	struct usb_pointer *p = this ? container_of(this, struct usb_pointer, simple) : NULL;

	return p && p->signature == POINTER_SIGNATURE ? p : NULL;
}

static EFI_STATUS EFIAPI abs_reset(EFI_ABSOLUTE_POINTER_PROTOCOL *this, BOOLEAN extended)
{
	struct usb_pointer *p = from_abs(this);
	EFI_TPL old;

	if (!p)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	p->abs_state =
	    (EFI_ABSOLUTE_POINTER_STATE){p->abs_mode.AbsoluteMinX, p->abs_mode.AbsoluteMinY, 0, 0};
	p->changed = false;
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI abs_get_state(EFI_ABSOLUTE_POINTER_PROTOCOL *this,
				       EFI_ABSOLUTE_POINTER_STATE *state)
{
	struct usb_pointer *p = from_abs(this);
	EFI_STATUS status = EFI_NOT_READY;
	EFI_TPL old;

	if (!p || !state)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	if (p->changed) {
		*state = p->abs_state;
		p->changed = false;
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI simple_reset(EFI_SIMPLE_POINTER_PROTOCOL *this, BOOLEAN extended)
{
	struct usb_pointer *p = from_simple(this);
	EFI_TPL old;

	if (!p)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	mem_set(&p->simple_state, 0, sizeof(p->simple_state));
	p->changed = false;
	tpl_restore(old);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI simple_get_state(EFI_SIMPLE_POINTER_PROTOCOL *this,
					  EFI_SIMPLE_POINTER_STATE *state)
{
	struct usb_pointer *p = from_simple(this);
	EFI_STATUS status = EFI_NOT_READY;
	EFI_TPL old;

	if (!p || !state)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	if (p->changed) {
		*state = p->simple_state;
		p->simple_state.RelativeMovementX = 0;
		p->simple_state.RelativeMovementY = 0;
		p->simple_state.RelativeMovementZ = 0;
		p->changed = false;
		status = EFI_SUCCESS;
	}
	tpl_restore(old);
	return status;
}

static void EFIAPI wait_for_input(EFI_EVENT event, void *context)
{
	struct usb_pointer *p = context;

	if (p->changed)
		event_signal(event);
}

static bool is_hid(void *interface)
{
	EFI_USB_IO_PROTOCOL *io = interface;
	EFI_USB_INTERFACE_DESCRIPTOR d;

	/* Boot keyboards are the keyboard driver's. */
	return !EFI_ERROR(io->UsbGetInterfaceDescriptor(io, &d)) && d.InterfaceClass == HID_CLASS &&
	       !(d.InterfaceSubClass == 1 && d.InterfaceProtocol == 1);
}

static EFI_STATUS EFIAPI pointer_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_usb_io_protocol_guid,
			       is_hid);
}

/* The interface's interrupt IN endpoint and its report descriptor's pointer fields. */
static EFI_STATUS describe(struct usb_pointer *p)
{
	UINT8 *desc;
	UINT32 result;
	EFI_STATUS status = hid_interrupt_in(p->io, &p->ep);

	if (status == EFI_DEVICE_ERROR)
		return status;
	desc = pool_alloc(REPORT_DESC_BYTES); /* zeros after what came: harmless items */
	if (EFI_ERROR(status) || !desc) {
		pool_free(desc);
		return EFI_UNSUPPORTED;
	}
	EFI_USB_DEVICE_REQUEST req = {USB_REQ_TYPE_DIR_IN | USB_TARGET_INTERFACE,
				      USB_REQ_GET_DESCRIPTOR, USB_DESC_TYPE_REPORT << 8,
				      p->ep.interface, REPORT_DESC_BYTES};
	status = p->io->UsbControlTransfer(p->io, &req, EfiUsbDataIn, REQUEST_TIMEOUT_MS, desc,
					   REPORT_DESC_BYTES, &result);
	if (!EFI_ERROR(status))
		status = hid_report_pointer(desc, REPORT_DESC_BYTES, &p->layout);
	pool_free(desc);
	return EFI_ERROR(status) ? EFI_UNSUPPORTED : EFI_SUCCESS;
}

static EFI_STATUS publish(struct usb_pointer *p)
{
	EFI_EVENT *wait = p->layout.relative ? &p->simple.WaitForInput : &p->abs.WaitForInput;
	EFI_STATUS status;

	p->abs = (EFI_ABSOLUTE_POINTER_PROTOCOL){abs_reset, abs_get_state, NULL, &p->abs_mode};
	p->abs_mode.AbsoluteMinX = (UINT64)(p->layout.x.min > 0 ? p->layout.x.min : 0);
	p->abs_mode.AbsoluteMinY = (UINT64)(p->layout.y.min > 0 ? p->layout.y.min : 0);
	p->abs_mode.AbsoluteMaxX = (UINT64)(p->layout.x.max > 0 ? p->layout.x.max : 0);
	p->abs_mode.AbsoluteMaxY = (UINT64)(p->layout.y.max > 0 ? p->layout.y.max : 0);
	p->abs_mode.Attributes = p->layout.buttons[1].size ? EFI_ABSP_SupportsAltActive : 0;
	p->simple =
	    (EFI_SIMPLE_POINTER_PROTOCOL){simple_reset, simple_get_state, NULL, &p->simple_mode};
	p->simple_mode = (EFI_SIMPLE_POINTER_MODE){8, 8, p->layout.wheel.size ? 1 : 0, TRUE,
						   p->layout.buttons[1].size != 0};
	status = event_create(EVT_NOTIFY_WAIT, TPL_NOTIFY, wait_for_input, p, NULL, wait);
	if (EFI_ERROR(status))
		return status;
	status = protocol_install(&p->controller, protocol_of(p), interface_of(p));
	if (EFI_ERROR(status))
		event_close(*wait);
	return status;
}

static EFI_STATUS EFIAPI pointer_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct usb_pointer *p = pool_alloc(sizeof(*p));
	EFI_STATUS status;

	if (!p)
		return EFI_OUT_OF_RESOURCES;
	p->controller = controller;
	p->driver = this->DriverBindingHandle;
	status = protocol_open(controller, &efi_usb_io_protocol_guid, (void **)&p->io, p->driver,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status))
		goto err_free;
	status = describe(p);
	if (EFI_ERROR(status)) {
		log_debug("not a pointing device\n");
		goto err_close;
	}
	p->signature = POINTER_SIGNATURE;
	status = publish(p);
	if (EFI_ERROR(status))
		goto err_close;
	status = p->io->UsbAsyncInterruptTransfer(p->io, p->ep.address, TRUE, p->ep.interval,
						  p->ep.packet, report_arrived, p);
	if (EFI_ERROR(status)) {
		log_debug("interrupt transfer: %r\n", status);
		protocol_uninstall(controller, protocol_of(p), interface_of(p));
		event_close(p->layout.relative ? p->simple.WaitForInput : p->abs.WaitForInput);
		goto err_close;
	}
	log_info("%s ready\n", p->layout.relative ? "mouse" : "tablet");
	return EFI_SUCCESS;

err_close:
	p->signature = 0;
	protocol_close(controller, &efi_usb_io_protocol_guid, p->driver, controller);
err_free:
	pool_free(p);
	return status;
}

static struct usb_pointer *pointer_on(EFI_HANDLE driver, EFI_HANDLE controller)
{
	void *interface;
	struct usb_pointer *p = NULL;

	if (!EFI_ERROR(protocol_open(controller, &efi_absolute_pointer_protocol_guid, &interface,
				     driver, controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL)))
		p = from_abs(interface);
	else if (!EFI_ERROR(protocol_open(controller, &efi_simple_pointer_protocol_guid, &interface,
					  driver, controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL)))
		p = from_simple(interface);
	return p && p->driver == driver ? p : NULL;
}

static EFI_STATUS EFIAPI pointer_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				      UINTN child_count, EFI_HANDLE *children)
{
	struct usb_pointer *p = pointer_on(this->DriverBindingHandle, controller);
	EFI_STATUS status;

	if (!p)
		return EFI_UNSUPPORTED;
	status = protocol_uninstall(controller, protocol_of(p), interface_of(p));
	if (EFI_ERROR(status))
		return status;
	p->io->UsbAsyncInterruptTransfer(p->io, p->ep.address, FALSE, 0, 0, NULL, NULL);
	event_close(p->layout.relative ? p->simple.WaitForInput : p->abs.WaitForInput);
	p->signature = 0;
	protocol_close(controller, &efi_usb_io_protocol_guid, p->driver, controller);
	pool_free(p);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL pointer_binding;

static EFI_STATUS EFIAPI pointer_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
						 EFI_HANDLE controller, EFI_HANDLE child,
						 CHAR8 *language, CHAR16 **name)
{
	struct usb_pointer *p = pointer_on(pointer_binding.DriverBindingHandle, controller);

	if (child || !p)
		return EFI_UNSUPPORTED;
	*name = p->layout.relative ? (CHAR16 *)u"USB Mouse" : (CHAR16 *)u"USB Tablet";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL pointer_binding = {
    .Supported = pointer_supported,
    .Start = pointer_start,
    .Stop = pointer_stop,
    .Version = 0x10,
};

static const struct ember_driver pointer_driver = {
    .name = u"USB Pointer Driver",
    .binding = &pointer_binding,
    .controller_name = pointer_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, pointer_driver);
