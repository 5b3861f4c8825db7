/* The virtio-net driver's binding (UEFI 2.10, 11.1) for virtio-net-pci (1af4:1041 modern,
 * 1af4:1000 transitional). Start reads the MAC and publishes EFI_SIMPLE_NETWORK_PROTOCOL on a
 * child handle, Pci(...)/MAC(addr,1), as boot options and PXE expect; the device stays reset
 * until SNP Initialize, and is reset again at ExitBootServices and at Stop.
 *
 * A NIC whose option ROM carries an EFI driver (QEMU's iPXE ROM) is offered to that driver
 * first, through the PCI bus's EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL; it opens PciIo
 * BY_DRIVER, so this driver's Supported() answers EFI_ACCESS_DENIED and it never binds: the
 * option ROM's driver wins (docs/design.md, "Network"). */
#define LOG_PREFIX "virtio-net: "
#include "virtio_net.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define WANTED_ATTRIBUTES                                                                          \
	(EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)

static bool is_virtio_net(void *interface)
{
	return virtio_pci_is(interface, VIRTIO_ID_NET, VIRTIO_PCI_LEGACY_NET);
}

static EFI_STATUS EFIAPI vnet_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	if (remaining && !dp_is_end(remaining) &&
	    (remaining->Type != MESSAGING_DEVICE_PATH || remaining->SubType != MSG_MAC_ADDR_DP))
		return EFI_UNSUPPORTED;
	return driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
			       is_virtio_net);
}

/* Transport, the MAC, the SNP and its exit event. */
static EFI_STATUS start_device(struct virtio_net *n)
{
	EFI_STATUS status = virtio_pci_init(&n->vp, n->pci.pci_io);

	if (EFI_ERROR(status)) {
		log_debug("no virtio interface: %r\n", status);
		return status;
	}
	status = vnet_dev_probe(n);
	if (EFI_ERROR(status))
		return status;
	status = vnet_snp_init(n);
	if (EFI_ERROR(status)) {
		log_debug("WaitForPacket event: %r\n", status);
		return status;
	}
	status = virtio_reset_at_exit(&n->vp.dev, &n->exit_event);
	if (EFI_ERROR(status)) {
		log_debug("exit event: %r\n", status);
		vnet_snp_fini(n);
	}
	return status;
}

static void stop_device(struct virtio_net *n)
{
	event_close(n->exit_event);
	vnet_snp_fini(n);
}

static EFI_STATUS child_create(struct virtio_net *n, EFI_HANDLE driver)
{
	MAC_ADDR_DEVICE_PATH mac = {{MESSAGING_DEVICE_PATH, MSG_MAC_ADDR_DP, {sizeof(mac), 0}},
				    n->front.mode.PermanentAddress,
				    n->front.mode.IfType};
	EFI_DEVICE_PATH_PROTOCOL *parent;
	void *pci_io;
	EFI_STATUS status;

	status = protocol_get(n->pci.controller, &efi_device_path_protocol_guid, (void **)&parent);
	if (EFI_ERROR(status)) {
		log_debug("the controller has no device path: %r\n", status);
		return status;
	}
	n->child_path = dp_append_node(parent, &mac.Header);
	if (!n->child_path)
		return EFI_OUT_OF_RESOURCES;
	status = protocol_install_multiple(&n->child, &efi_device_path_protocol_guid, n->child_path,
					   &efi_simple_network_protocol_guid, &n->front.snp, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing the SNP: %r\n", status);
		goto err_free;
	}
	status = protocol_open(n->pci.controller, &efi_pci_io_protocol_guid, &pci_io, driver,
			       n->child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status)) {
		log_debug("opening PciIo for the child: %r\n", status);
		protocol_uninstall_multiple(n->child, &efi_device_path_protocol_guid, n->child_path,
					    &efi_simple_network_protocol_guid, &n->front.snp, NULL);
		goto err_free;
	}
	return EFI_SUCCESS;

err_free:
	n->child = NULL;
	pool_free(n->child_path);
	n->child_path = NULL;
	return status;
}

/* Removes the child; while someone holds its SNP BY_DRIVER and refuses to let go, it stays. */
static EFI_STATUS child_destroy(struct virtio_net *n, EFI_HANDLE driver)
{
	void *pci_io;
	EFI_STATUS status;

	protocol_close(n->pci.controller, &efi_pci_io_protocol_guid, driver, n->child);
	status =
	    protocol_uninstall_multiple(n->child, &efi_device_path_protocol_guid, n->child_path,
					&efi_simple_network_protocol_guid, &n->front.snp, NULL);
	if (EFI_ERROR(status)) {
		protocol_open(n->pci.controller, &efi_pci_io_protocol_guid, &pci_io, driver,
			      n->child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	n->child = NULL;
	pool_free(n->child_path);
	n->child_path = NULL;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI vnet_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct virtio_net *n = pool_alloc(sizeof(*n));
	EFI_STATUS status;

	if (!n)
		return EFI_OUT_OF_RESOURCES;
	mem_set(n, 0, sizeof(*n));
	status =
	    pci_driver_start(&n->pci, this->DriverBindingHandle, controller, 0, WANTED_ATTRIBUTES);
	if (EFI_ERROR(status))
		goto err_free;
	status = start_device(n);
	if (EFI_ERROR(status))
		goto err_pci;
	status = child_create(n, this->DriverBindingHandle);
	if (EFI_ERROR(status))
		goto err_device;
	log_info("%02x:%02x:%02x:%02x:%02x:%02x, %s interface, link %s\n",
		 n->front.mode.PermanentAddress.Addr[0], n->front.mode.PermanentAddress.Addr[1],
		 n->front.mode.PermanentAddress.Addr[2], n->front.mode.PermanentAddress.Addr[3],
		 n->front.mode.PermanentAddress.Addr[4], n->front.mode.PermanentAddress.Addr[5],
		 n->vp.dev.legacy ? "legacy" : "modern",
		 n->front.mode.MediaPresent ? "up" : "down");
	return EFI_SUCCESS;

err_device:
	stop_device(n);
err_pci:
	log_warn("cannot start the device: %r\n", status);
	pci_driver_stop(&n->pci);
err_free:
	pool_free(n);
	return status;
}

static struct virtio_net *vnet_on(EFI_DRIVER_BINDING_PROTOCOL *binding, EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct virtio_net, pci) : NULL;
}

static EFI_STATUS EFIAPI vnet_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct virtio_net *n = vnet_on(this, controller);
	EFI_STATUS status;

	if (!n)
		return EFI_DEVICE_ERROR;
	if (child_count) {
		for (UINTN i = 0; i < child_count; i++)
			if (!children || children[i] != n->child)
				return EFI_DEVICE_ERROR;
		return child_destroy(n, this->DriverBindingHandle);
	}
	if (n->child) {
		status = child_destroy(n, this->DriverBindingHandle);
		if (EFI_ERROR(status))
			return status;
	}
	stop_device(n);
	pci_driver_stop(&n->pci);
	pool_free(n);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vnet_binding;

static EFI_STATUS EFIAPI vnet_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	struct virtio_net *n = vnet_on(&vnet_binding, controller);

	if (!n || (child && child != n->child))
		return EFI_UNSUPPORTED;
	*name = n->vp.dev.legacy ? (CHAR16 *)u"Virtio Network Device (legacy)"
				 : (CHAR16 *)u"Virtio Network Device";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vnet_binding = {
    .Supported = vnet_supported,
    .Start = vnet_start,
    .Stop = vnet_stop,
    .Version = 0x10,
};

static const struct ember_driver vnet_driver = {
    .name = u"Virtio Network Driver",
    .binding = &vnet_binding,
    .controller_name = vnet_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, vnet_driver);
