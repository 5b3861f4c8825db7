/* The NVM Express driver (UEFI driver model): binds to PciIo handles of class 01/08/02,
 * brings the controller up with an admin and an I/O queue, publishes
 * EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL on the controller and a child per active namespace.
 * The controller is shut down when the driver stops and at ExitBootServices. */
#define LOG_PREFIX "nvme: "
#include "nvme.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/drivers/pci_driver.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/pci.h>

#define PCI_CLASS_CODE 0x09 /* programming interface, subclass, class */
#define ALL_NAMESPACES 0

struct nvme_instance {
	struct pci_driver_dev pci;
	struct nvme_ctrl ctrl;
};

/* Class 01/08/02 with its registers where the spec puts them: BAR 0, a memory BAR the PCI
 * bus driver gave an address. */
static bool is_nvme(void *interface)
{
	EFI_PCI_IO_PROTOCOL *pci_io = interface;
	UINT8 class[3] = {0, 0, 0};
	UINT32 bar[2] = {1, 0};

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint8, PCI_CLASS_CODE, 3, class);
	if (class[2] != NVME_PCI_CLASS || class[1] != NVME_PCI_SUBCLASS ||
	    class[0] != NVME_PCI_PROG_IF)
		return false;
	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint32, PCI_BASE_ADDRESS_OFFSET, 2, bar);
	if (bar[0] & PCI_BAR_IO_SPACE)
		return false;
	/* The upper half counts only for a 64-bit BAR (type 2). */
	return (bar[0] & PCI_BAR_MEM_MASK) ||
	       ((bar[0] & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_TYPE_64 && bar[1]);
}

/* The namespace a remaining path asks for (11.1): ALL_NAMESPACES for NULL, none at all
 * (*none) for End, the ID of an NVMe() node; false for any other node. */
static bool namespace_asked(EFI_DEVICE_PATH_PROTOCOL *remaining, UINT32 *nsid, bool *none)
{
	NVME_NAMESPACE_DEVICE_PATH node;

	*nsid = ALL_NAMESPACES;
	*none = remaining && dp_is_end(remaining);
	if (!remaining || *none)
		return true;
	if (remaining->Type != MESSAGING_DEVICE_PATH ||
	    remaining->SubType != MSG_NVME_NAMESPACE_DP ||
	    dp_node_length(remaining) != sizeof(node))
		return false;
	mem_copy(&node, remaining, sizeof(node)); /* a node need not be aligned */
	*nsid = node.NamespaceId;
	return *nsid != ALL_NAMESPACES;
}

static struct nvme_instance *instance_on(EFI_DRIVER_BINDING_PROTOCOL *binding,
					 EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct nvme_instance, pci) : NULL;
}

/* Whether a namespace asked for has no child yet (a bus driver's Start makes the missing
 * children, 11.1). One that gave none when all were asked for is tried again only by name:
 * each try costs commands, and ConnectController is called often. */
static bool child_missing(struct nvme_ctrl *c, UINT32 nsid)
{
	if (nsid != ALL_NAMESPACES)
		return nvme_ns_active(c, nsid) && !nvme_ns_find(c, nsid);
	for (UINT32 i = 0; i < c->ns_count; i++)
		if (!c->ns_given_up[i] && !nvme_ns_find(c, c->ns_ids[i]))
			return true;
	return false;
}

static EFI_STATUS EFIAPI nvme_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct nvme_instance *inst;
	UINT32 nsid;
	bool none;
	EFI_STATUS status;

	if (!namespace_asked(remaining, &nsid, &none))
		return EFI_UNSUPPORTED;
	status = driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
				 is_nvme);
	if (status != EFI_ALREADY_STARTED)
		return status;
	inst = instance_on(this, controller);
	if (inst && !none && child_missing(&inst->ctrl, nsid))
		return EFI_SUCCESS;
	return EFI_ALREADY_STARTED;
}

/* Creates the children asked for that are missing; EFI_SUCCESS when one was made or all
 * were there. */
static EFI_STATUS create_children(struct nvme_ctrl *c, UINT32 nsid)
{
	EFI_STATUS status = EFI_SUCCESS;
	bool created = false;

	if (nsid != ALL_NAMESPACES)
		return nvme_ns_active(c, nsid) ? nvme_ns_create(c, nsid) : EFI_NOT_FOUND;
	for (UINT32 i = 0; i < c->ns_count; i++) {
		if (c->ns_given_up[i] || nvme_ns_find(c, c->ns_ids[i]))
			continue;
		status = nvme_ns_create(c, c->ns_ids[i]);
		created |= !EFI_ERROR(status);
		c->ns_given_up[i] = EFI_ERROR(status);
	}
	return created ? EFI_SUCCESS : status;
}

static void EFIAPI nvme_exit_boot_services(EFI_EVENT event, void *context)
{
	/* No DMA into memory the OS now owns; the cache is written out. */
	nvme_ctrl_shutdown(context);
}

/* Bus mastering (64-bit addresses allowed: every NVMe controller has them), then the
 * controller up, its identity read and its I/O queues made. */
static EFI_STATUS bring_up(struct nvme_instance *inst)
{
	struct nvme_ctrl *c = &inst->ctrl;
	EFI_STATUS status;

	status = pci_driver_enable(&inst->pci, EFI_PCI_IO_ATTRIBUTE_BUS_MASTER,
				   EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE);
	if (EFI_ERROR(status))
		return status;
	status = nvme_ctrl_init(c);
	if (EFI_ERROR(status))
		return status;
	status = nvme_ctrl_enable(c);
	if (!EFI_ERROR(status))
		status = nvme_read_identity(c);
	if (!EFI_ERROR(status))
		status = nvme_create_io_queues(c);
	if (EFI_ERROR(status)) {
		nvme_ctrl_shutdown(c);
		nvme_ctrl_release(c);
		pool_free(c->ns_ids);
	}
	return status;
}

static EFI_STATUS publish(struct nvme_ctrl *c)
{
	EFI_STATUS status;

	status = event_create(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, nvme_exit_boot_services,
			      c, NULL, &c->exit_event);
	if (EFI_ERROR(status)) {
		log_debug("exit event: %r\n", status);
		return status;
	}
	nvme_pass_thru_init(c);
	status = protocol_install(&c->controller, &efi_nvm_express_pass_thru_protocol_guid,
				  &c->pass_thru);
	if (EFI_ERROR(status)) {
		log_debug("pass thru: %r\n", status);
		event_close(c->exit_event);
	}
	return status;
}

static void bring_down(struct nvme_ctrl *c)
{
	nvme_ctrl_shutdown(c);
	nvme_ctrl_release(c);
	pool_free(c->ns_ids);
}

static EFI_STATUS start_controller(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINT32 nsid, bool none)
{
	struct nvme_instance *inst = pool_alloc(sizeof(*inst));
	struct nvme_ctrl *c;
	EFI_STATUS status;

	if (!inst)
		return EFI_OUT_OF_RESOURCES;
	c = &inst->ctrl;
	c->controller = controller;
	c->driver = this->DriverBindingHandle;
	list_init(&c->namespaces);
	status =
	    pci_driver_start(&inst->pci, c->driver, controller, EFI_PCI_IO_ATTRIBUTE_MEMORY, 0);
	if (EFI_ERROR(status))
		goto err_free;
	c->pci_io = inst->pci.pci_io;
	status = protocol_open(controller, &efi_device_path_protocol_guid, (void **)&c->path,
			       c->driver, controller, EFI_OPEN_PROTOCOL_GET_PROTOCOL);
	if (!EFI_ERROR(status))
		status = bring_up(inst);
	if (EFI_ERROR(status))
		goto err_pci;
	status = publish(c);
	if (EFI_ERROR(status))
		goto err_ctrl;
	c->signature = NVME_CTRL_SIGNATURE;
	/* The controller is started even when no namespace became a child. */
	if (!none)
		create_children(c, nsid);
	return EFI_SUCCESS;

err_ctrl:
	bring_down(c);
err_pci:
	log_warn("cannot start the controller: %r\n", status);
	pci_driver_stop(&inst->pci);
err_free:
	pool_free(inst);
	return status;
}

static EFI_STATUS EFIAPI nvme_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct nvme_instance *inst = instance_on(this, controller);
	UINT32 nsid;
	bool none;

	if (!namespace_asked(remaining, &nsid, &none))
		return EFI_UNSUPPORTED;
	if (!inst)
		return start_controller(this, controller, nsid, none);
	if (none || !child_missing(&inst->ctrl, nsid))
		return EFI_ALREADY_STARTED;
	return create_children(&inst->ctrl, nsid);
}

static EFI_STATUS stop_children(struct nvme_ctrl *c, UINTN count, EFI_HANDLE *children)
{
	EFI_STATUS result = EFI_SUCCESS;

	for (UINTN i = 0; i < count; i++) {
		struct nvme_ns *ns = nvme_ns_on(c, children[i]);

		if (!ns || EFI_ERROR(nvme_ns_destroy(ns)))
			result = EFI_DEVICE_ERROR;
	}
	return result;
}

static EFI_STATUS EFIAPI nvme_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct nvme_instance *inst = instance_on(this, controller);
	struct nvme_ctrl *c;
	EFI_STATUS status;

	if (!inst)
		return EFI_UNSUPPORTED;
	c = &inst->ctrl;
	if (child_count)
		return stop_children(c, child_count, children);
	status =
	    protocol_uninstall(controller, &efi_nvm_express_pass_thru_protocol_guid, &c->pass_thru);
	if (EFI_ERROR(status))
		return status;
	event_close(c->exit_event);
	bring_down(c);
	pci_driver_stop(&inst->pci);
	c->signature = 0;
	pool_free(inst);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL nvme_binding;

static EFI_STATUS EFIAPI nvme_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	struct nvme_instance *inst = instance_on(&nvme_binding, controller);

	if (!inst)
		return EFI_UNSUPPORTED;
	if (!child) {
		*name = (CHAR16 *)u"NVM Express Controller";
		return EFI_SUCCESS;
	}
	if (!nvme_ns_on(&inst->ctrl, child))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)u"NVM Express Namespace";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL nvme_binding = {
    .Supported = nvme_supported,
    .Start = nvme_start,
    .Stop = nvme_stop,
    .Version = 0x10,
};

static const struct ember_driver nvme_driver = {
    .name = u"NVM Express Driver",
    .binding = &nvme_binding,
    .controller_name = nvme_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, nvme_driver);
