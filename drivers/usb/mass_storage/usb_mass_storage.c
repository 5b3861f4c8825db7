/* The USB mass storage driver: binds to USB interfaces of class 08 (mass storage), subclass
 * 06 (SCSI transparent command set), protocol 0x50 (Bulk-Only Transport) and installs
 * EFI_EXT_SCSI_PASS_THRU_PROTOCOL on the interface's handle; the SCSI bus driver then gives
 * each LUN a child USB(port,interface)/Scsi(0,lun), and the SCSI disk driver its BlockIo. */
#define LOG_PREFIX "usb-storage: "
#include "usb_bot.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define MASS_STORAGE_CLASS 0x08
#define SUBCLASS_SCSI 0x06
#define PROTOCOL_BULK_ONLY 0x50

struct usb_storage {
	struct usb_bot bot;
	EFI_HANDLE controller, driver;
};

static bool is_bot_storage(void *interface)
{
	EFI_USB_IO_PROTOCOL *io = interface;
	EFI_USB_INTERFACE_DESCRIPTOR d;

	return !EFI_ERROR(io->UsbGetInterfaceDescriptor(io, &d)) &&
	       d.InterfaceClass == MASS_STORAGE_CLASS && d.InterfaceSubClass == SUBCLASS_SCSI &&
	       d.InterfaceProtocol == PROTOCOL_BULK_ONLY;
}

static EFI_STATUS EFIAPI storage_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_usb_io_protocol_guid,
			       is_bot_storage);
}

static EFI_STATUS EFIAPI storage_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct usb_storage *s = pool_alloc(sizeof(*s));
	EFI_USB_IO_PROTOCOL *io;
	EFI_STATUS status;

	if (!s)
		return EFI_OUT_OF_RESOURCES;
	mem_set(s, 0, sizeof(*s));
	s->controller = controller;
	s->driver = this->DriverBindingHandle;
	status = protocol_open(controller, &efi_usb_io_protocol_guid, (void **)&io, s->driver,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status))
		goto err_free;
	status = usb_bot_start(&s->bot, io);
	if (EFI_ERROR(status))
		goto err_close;
	status = protocol_install(&controller, &efi_ext_scsi_pass_thru_protocol_guid,
				  &s->bot.pt.protocol);
	if (EFI_ERROR(status)) {
		log_debug("installing ExtScsiPassThru: %r\n", status);
		goto err_close;
	}
	log_info("mass storage ready, %u LUN(s)\n", s->bot.pt.max_lun + 1u);
	return EFI_SUCCESS;

err_close:
	s->bot.pt.signature = 0;
	protocol_close(controller, &efi_usb_io_protocol_guid, s->driver, controller);
err_free:
	pool_free(s);
	return status;
}

static struct usb_storage *storage_on(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller)
{
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *protocol;
	struct scsi_pass_thru *pt;
	struct usb_storage *s;

	if (EFI_ERROR(protocol_open(controller, &efi_ext_scsi_pass_thru_protocol_guid,
				    (void **)&protocol, this->DriverBindingHandle, controller,
				    EFI_OPEN_PROTOCOL_GET_PROTOCOL)))
		return NULL;
	pt = scsi_pass_thru_from_protocol(protocol);
	if (!pt || pt->ops != &usb_bot_ops)
		return NULL;
	s = container_of(pt, struct usb_storage, bot.pt);
	return s->driver == this->DriverBindingHandle ? s : NULL;
}

static EFI_STATUS EFIAPI storage_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				      UINTN child_count, EFI_HANDLE *children)
{
	struct usb_storage *s = storage_on(this, controller);
	EFI_STATUS status;

	if (!s)
		return EFI_UNSUPPORTED;
	status = protocol_uninstall(controller, &efi_ext_scsi_pass_thru_protocol_guid,
				    &s->bot.pt.protocol);
	if (EFI_ERROR(status))
		return status;
	s->bot.pt.signature = 0;
	protocol_close(controller, &efi_usb_io_protocol_guid, s->driver, controller);
	pool_free(s);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL storage_binding;

static EFI_STATUS EFIAPI storage_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
						 EFI_HANDLE controller, EFI_HANDLE child,
						 CHAR8 *language, CHAR16 **name)
{
	if (child || !storage_on(&storage_binding, controller))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)u"USB Mass Storage (Bulk-Only)";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL storage_binding = {
    .Supported = storage_supported,
    .Start = storage_start,
    .Stop = storage_stop,
    .Version = 0x10,
};

static const struct ember_driver storage_driver = {
    .name = u"USB Mass Storage Driver",
    .binding = &storage_binding,
    .controller_name = storage_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, storage_driver);
