/* The PXE boot driver (UEFI driver model): binds to each EFI_SIMPLE_NETWORK_PROTOCOL whose
 * handle has no EFI_LOAD_FILE_PROTOCOL yet (an option ROM's driver, such as iPXE, brings its
 * own) and installs Ember's PXE LoadFile and EFI_PXE_BASE_CODE_PROTOCOL beside it; the boot
 * manager then makes a PXEv4 boot option of the handle. */
#define LOG_PREFIX "pxe: "
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/util.h>
#include "pxe.h"

static EFI_STATUS EFIAPI pxe_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	void *lf;

	if (!EFI_ERROR(protocol_get(controller, &efi_load_file_protocol_guid, &lf)))
		return EFI_UNSUPPORTED;
	return driver_can_open(this->DriverBindingHandle, controller,
			       &efi_simple_network_protocol_guid, NULL);
}

/* The next interface's number: eth0, eth1 ... in the order the NICs were started. */
static unsigned pxe_next_index;

static EFI_STATUS EFIAPI pxe_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct pxe_dev *d = pool_alloc(sizeof(*d));
	EFI_STATUS status;

	if (!d) {
		log_debug("no memory for the device\n");
		return EFI_OUT_OF_RESOURCES;
	}
	status = protocol_open(controller, &efi_simple_network_protocol_guid, (void **)&d->snp,
			       this->DriverBindingHandle, controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("opening SimpleNetwork: %r\n", status);
		goto err_free;
	}
	if (!d->snp->Mode || d->snp->Mode->HwAddressSize != NET_MAC_LEN) {
		log_debug("not an Ethernet SNP\n");
		status = EFI_UNSUPPORTED;
		goto err_close;
	}
	d->signature = PXE_SIGNATURE;
	d->controller = controller;
	d->load_file.LoadFile = pxe_load_file;
	pxe_base_code_init(d);
	pxe_ip4_config_init(d);
	pxe_tools_init(d);
	status = protocol_install_multiple(&controller, &efi_load_file_protocol_guid, &d->load_file,
					   &efi_pxe_base_code_protocol_guid, &d->pxe,
					   &efi_ip4_config2_protocol_guid, &d->ip4_config,
					   &ember_net_tools_protocol_guid, &d->tools, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing LoadFile, PxeBaseCode and the configuration: %r\n", status);
		goto err_close;
	}
	d->index = pxe_next_index++;
	/* Without a child there is still PXE: HTTP boot is the one lost. */
	pxe_http_child_create(d, this->DriverBindingHandle);
	return EFI_SUCCESS;

err_close:
	protocol_close(controller, &efi_simple_network_protocol_guid, this->DriverBindingHandle,
		       controller);
err_free:
	pool_free(d);
	return status;
}

static EFI_STATUS EFIAPI pxe_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  UINTN child_count, EFI_HANDLE *children)
{
	EFI_LOAD_FILE_PROTOCOL *lf;
	struct pxe_dev *d;
	EFI_STATUS status = protocol_get(controller, &efi_load_file_protocol_guid, (void **)&lf);

	if (EFI_ERROR(status))
		return EFI_UNSUPPORTED;
	d = container_of(lf, struct pxe_dev, load_file);
	if (lf->LoadFile != pxe_load_file || d->signature != PXE_SIGNATURE)
		return EFI_UNSUPPORTED;
	status = pxe_http_child_destroy(d, this->DriverBindingHandle);
	if (EFI_ERROR(status) || child_count)
		return status;
	status = protocol_uninstall_multiple(
	    controller, &efi_load_file_protocol_guid, &d->load_file,
	    &efi_pxe_base_code_protocol_guid, &d->pxe, &efi_ip4_config2_protocol_guid,
	    &d->ip4_config, &ember_net_tools_protocol_guid, &d->tools, NULL);
	if (EFI_ERROR(status))
		return status;
	protocol_close(controller, &efi_simple_network_protocol_guid, this->DriverBindingHandle,
		       controller);
	d->signature = 0;
	pool_free(d);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL pxe_binding = {
    .Supported = pxe_supported,
    .Start = pxe_start,
    .Stop = pxe_stop,
    .Version = 0x10,
};

static const struct ember_driver pxe_driver = {
    .name = u"PXE Boot Driver (DHCPv4, TFTP)",
    .binding = &pxe_binding,
};
EMBER_DRIVER(INIT_NORMAL, pxe_driver);
