/* The SCSI bus driver (UEFI driver model): binds to any EFI_EXT_SCSI_PASS_THRU_PROTOCOL,
 * asks each target for its LUNs (REPORT LUNS, or LUN 0 alone when the target does not know
 * the command), asks each LUN what it is (INQUIRY), and makes a child handle for each LUN
 * with a device: Scsi(target,lun) appended to the channel's device path, and
 * EFI_SCSI_IO_PROTOCOL. A remaining device path names the one LUN to make. */
#define LOG_PREFIX "scsi-bus: "
#include "scsi_bus.h"
#include "scsi_data.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

/* LUNs one target may have that Ember looks at. */
#define MAX_LUNS 64
#define REPORT_LUNS_BYTES (8 + 8 * MAX_LUNS)

struct bus_scan {
	EFI_HANDLE driver, controller;
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt;
	EFI_DEVICE_PATH_PROTOCOL *path;
	UINT8 *buffer; /* REPORT_LUNS_BYTES, aligned for the channel */
};

/* One command that reads into s->buffer; *bytes comes back as what arrived. */
static EFI_STATUS command_in(struct bus_scan *s, UINT8 *target, UINT64 lun, UINT8 *cdb,
			     UINT8 cdb_len, UINT32 *bytes, UINT8 *host_status)
{
	EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET p = {
	    .Timeout = SCSI_BUS_TIMEOUT,
	    .InDataBuffer = s->buffer,
	    .Cdb = cdb,
	    .InTransferLength = *bytes,
	    .CdbLength = cdb_len,
	    .DataDirection = EFI_EXT_SCSI_DATA_DIRECTION_READ,
	};
	EFI_STATUS status;

	mem_set(s->buffer, 0, *bytes);
	status = s->pt->PassThru(s->pt, target, lun, &p, NULL);
	*bytes = MIN(p.InTransferLength, *bytes);
	*host_status = p.HostAdapterStatus;
	return status;
}

static EFI_STATUS install_child(struct bus_scan *s, struct scsi_device *dev)
{
	EFI_DEVICE_PATH_PROTOCOL *node = NULL;
	void *opened;
	EFI_STATUS status = s->pt->BuildDevicePath(s->pt, dev->target, dev->lun, &node);

	if (EFI_ERROR(status))
		return status;
	dev->path = dp_append_node(s->path, node);
	pool_free(node);
	if (!dev->path)
		return EFI_OUT_OF_RESOURCES;
	status = protocol_install_multiple(&dev->handle, &efi_device_path_protocol_guid, dev->path,
					   &efi_scsi_io_protocol_guid, &dev->scsi_io, NULL);
	if (EFI_ERROR(status))
		goto err_path;
	status = protocol_open(s->controller, &efi_ext_scsi_pass_thru_protocol_guid, &opened,
			       s->driver, dev->handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status))
		goto err_uninstall;
	return EFI_SUCCESS;

err_uninstall:
	protocol_uninstall_multiple(dev->handle, &efi_device_path_protocol_guid, dev->path,
				    &efi_scsi_io_protocol_guid, &dev->scsi_io, NULL);
err_path:
	pool_free(dev->path);
	return status;
}

/* INQUIRY of one LUN; a LUN with a device gets a child. */
static void probe_lun(struct bus_scan *s, UINT8 *target, UINT64 lun)
{
	UINT8 cdb[6] = {SCSI_OP_INQUIRY, 0, 0, 0, SCSI_INQUIRY_BYTES, 0};
	UINT32 bytes = SCSI_INQUIRY_BYTES;
	struct scsi_inquiry inq;
	struct scsi_device *dev;
	UINT8 host;
	EFI_STATUS status = command_in(s, target, lun, cdb, sizeof(cdb), &bytes, &host);

	if (EFI_ERROR(status) || !scsi_data_inquiry(s->buffer, bytes, &inq)) {
		log_debug("%u:%llu: INQUIRY: %r (%u bytes)\n", target[0], (unsigned long long)lun,
			  status, bytes);
		return;
	}
	if (inq.qualifier != SCSI_QUALIFIER_CONNECTED || inq.type == EFI_SCSI_IO_TYPE_UNKNOWN)
		return;
	dev = pool_alloc(sizeof(*dev));
	if (!dev)
		return;
	scsi_device_init(dev, s->pt, target, lun, inq.type);
	status = install_child(s, dev);
	if (EFI_ERROR(status)) {
		log_debug("%u:%llu: child: %r\n", target[0], (unsigned long long)lun, status);
		pool_free(dev);
		return;
	}
	log_debug("%u:%llu: type %u \"%s %s\"\n", target[0], (unsigned long long)lun, inq.type,
		  inq.vendor, inq.product);
}

/* REPORT LUNS to LUN 0; a target that does not answer it, or names no LUN we can address,
 * is probed at LUN 0 alone, and one that is not there (selection timeout) not at all. */
static void scan_target(struct bus_scan *s, UINT8 *target)
{
	UINT8 cdb[12] = {SCSI_OP_REPORT_LUNS};
	UINT32 bytes = REPORT_LUNS_BYTES;
	UINT16 luns[MAX_LUNS];
	UINTN count = 0;
	UINT8 host;
	EFI_STATUS status;

	scsi_put_be32(cdb + 6, REPORT_LUNS_BYTES);
	status = command_in(s, target, 0, cdb, sizeof(cdb), &bytes, &host);
	if (status == EFI_TIMEOUT || host == EFI_EXT_SCSI_STATUS_HOST_ADAPTER_SELECTION_TIMEOUT)
		return;
	/* An empty list is no better than none: LUN 0 is asked either way. */
	if (EFI_ERROR(status) ||
	    !scsi_data_report_luns(s->buffer, bytes, 0xffff, luns, MAX_LUNS, &count) || !count) {
		log_debug("%u: REPORT LUNS: %r, %u LUNs; trying LUN 0\n", target[0], status,
			  (UINT32)count);
		probe_lun(s, target, 0);
		return;
	}
	for (UINTN i = 0; i < count; i++)
		probe_lun(s, target, luns[i]);
}

static void scan_all(struct bus_scan *s)
{
	UINT8 target_buf[TARGET_MAX_BYTES];
	UINT8 *target = target_buf;

	mem_set(target_buf, 0xff, sizeof(target_buf));
	while (!EFI_ERROR(s->pt->GetNextTarget(s->pt, &target)))
		scan_target(s, target);
}

/* The one LUN a remaining device path names (nothing for an End node). */
static void scan_remaining(struct bus_scan *s, EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	UINT8 target_buf[TARGET_MAX_BYTES];
	UINT8 *target = target_buf;
	UINT64 lun;

	if (dp_is_end(remaining))
		return;
	if (!EFI_ERROR(s->pt->GetTargetLun(s->pt, remaining, &target, &lun)))
		probe_lun(s, target, lun);
}

static bool accept_pass_thru(void *interface)
{
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt = interface;

	/* A RAID controller's physical channel is for its own use (15.7). */
	return pt->Mode && (pt->Mode->Attributes & EFI_EXT_SCSI_PASS_THRU_ATTRIBUTES_LOGICAL) != 0;
}

static EFI_STATUS EFIAPI bus_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	if (remaining && !dp_is_end(remaining) &&
	    (remaining->Type != MESSAGING_DEVICE_PATH || remaining->SubType != MSG_SCSI_DP))
		return EFI_UNSUPPORTED;
	return driver_can_open(this->DriverBindingHandle, controller,
			       &efi_ext_scsi_pass_thru_protocol_guid, accept_pass_thru);
}

static EFI_STATUS EFIAPI bus_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct bus_scan s = {this->DriverBindingHandle, controller};
	void *raw;
	EFI_STATUS status =
	    protocol_open(controller, &efi_device_path_protocol_guid, (void **)&s.path, s.driver,
			  controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);

	if (EFI_ERROR(status)) {
		log_debug("no device path: %r\n", status);
		return status;
	}
	status = protocol_open(controller, &efi_ext_scsi_pass_thru_protocol_guid, (void **)&s.pt,
			       s.driver, controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("opening ExtScsiPassThru: %r\n", status);
		return status;
	}
	s.buffer = scsi_buffer_alloc(s.pt->Mode->IoAlign, REPORT_LUNS_BYTES, &raw);
	if (!s.buffer) {
		protocol_close(controller, &efi_ext_scsi_pass_thru_protocol_guid, s.driver,
			       controller);
		return EFI_OUT_OF_RESOURCES;
	}
	if (remaining)
		scan_remaining(&s, remaining);
	else
		scan_all(&s);
	pool_free(raw);
	return EFI_SUCCESS;
}

static EFI_STATUS stop_child(EFI_HANDLE driver, EFI_HANDLE controller, EFI_HANDLE child)
{
	EFI_SCSI_IO_PROTOCOL *io;
	struct scsi_device *dev;
	void *opened;
	EFI_STATUS status = protocol_open(child, &efi_scsi_io_protocol_guid, (void **)&io, driver,
					  controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);

	dev = EFI_ERROR(status) ? NULL : scsi_device_from_io(io);
	if (!dev)
		return EFI_DEVICE_ERROR;
	protocol_close(controller, &efi_ext_scsi_pass_thru_protocol_guid, driver, child);
	status = protocol_uninstall_multiple(child, &efi_device_path_protocol_guid, dev->path,
					     &efi_scsi_io_protocol_guid, &dev->scsi_io, NULL);
	if (EFI_ERROR(status)) {
		protocol_open(controller, &efi_ext_scsi_pass_thru_protocol_guid, &opened, driver,
			      child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	dev->signature = 0;
	pool_free(dev->path);
	pool_free(dev);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI bus_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  UINTN child_count, EFI_HANDLE *children)
{
	EFI_STATUS result = EFI_SUCCESS;

	if (!child_count)
		return protocol_close(controller, &efi_ext_scsi_pass_thru_protocol_guid,
				      this->DriverBindingHandle, controller);
	for (UINTN i = 0; i < child_count; i++)
		if (EFI_ERROR(stop_child(this->DriverBindingHandle, controller, children[i])))
			result = EFI_DEVICE_ERROR;
	return result;
}

static EFI_STATUS EFIAPI bus_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					     EFI_HANDLE controller, EFI_HANDLE child,
					     CHAR8 *language, CHAR16 **name)
{
	EFI_SCSI_IO_PROTOCOL *io;

	if (!child || EFI_ERROR(protocol_get(child, &efi_scsi_io_protocol_guid, (void **)&io)) ||
	    !scsi_device_from_io(io))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)u"SCSI Device";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL bus_binding = {
    .Supported = bus_supported,
    .Start = bus_start,
    .Stop = bus_stop,
    .Version = 0x10,
};

static const struct ember_driver bus_driver = {
    .name = u"SCSI Bus Driver",
    .binding = &bus_binding,
    .controller_name = bus_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, bus_driver);
