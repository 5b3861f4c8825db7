/* The graphics console driver (UEFI driver model): binds to handles with a Graphics Output
 * Protocol and installs SimpleTextOut beside it, text drawn in the built-in font. */
#define LOG_PREFIX "graphics-console: "
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include "gc.h"
#include <ember/lib/guids.h>

static EFI_STATUS EFIAPI gc_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				      EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_STATUS status = driver_can_open(this->DriverBindingHandle, controller,
					    &efi_graphics_output_protocol_guid, NULL);
	void *out;

	if (EFI_ERROR(status))
		return status;
	/* A handle that has a text output already (another console) is left alone. */
	if (!EFI_ERROR(protocol_get(controller, &efi_simple_text_output_protocol_guid, &out)))
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI gc_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_HANDLE agent = this->DriverBindingHandle;
	struct gc *g = pool_alloc(sizeof(*g));
	EFI_STATUS status;

	if (!g) {
		log_debug("no memory for the console\n");
		return EFI_OUT_OF_RESOURCES;
	}
	g->signature = GC_SIGNATURE;
	g->handle = controller;
	status = protocol_open(controller, &efi_graphics_output_protocol_guid, (void **)&g->gop,
			       agent, controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("opening the GOP: %r\n", status);
		goto err_free;
	}
	status = gc_out_init(g);
	if (EFI_ERROR(status))
		goto err_close; /* gc_out_init said why */
	status = protocol_install(&g->handle, &efi_simple_text_output_protocol_guid, &g->text.out);
	if (EFI_ERROR(status)) {
		log_debug("installing SimpleTextOut: %r\n", status);
		goto err_out;
	}
	return EFI_SUCCESS;

err_out:
	gc_out_fini(g);
err_close:
	protocol_close(controller, &efi_graphics_output_protocol_guid, agent, controller);
err_free:
	pool_free(g);
	return status;
}

static EFI_STATUS EFIAPI gc_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				 UINTN child_count, EFI_HANDLE *children)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out;
	struct text_output *text;
	struct gc *g;
	EFI_STATUS status;

	if (EFI_ERROR(
		protocol_get(controller, &efi_simple_text_output_protocol_guid, (void **)&out)))
		return EFI_UNSUPPORTED;
	text = text_output_from(out);
	if (!text)
		return EFI_UNSUPPORTED;
	g = container_of(text, struct gc, text);
	if (g->signature != GC_SIGNATURE)
		return EFI_UNSUPPORTED;
	status =
	    protocol_uninstall(controller, &efi_simple_text_output_protocol_guid, &g->text.out);
	if (EFI_ERROR(status))
		return status;
	protocol_close(controller, &efi_graphics_output_protocol_guid, this->DriverBindingHandle,
		       controller);
	gc_out_fini(g);
	g->signature = 0;
	pool_free(g);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL gc_binding = {
    .Supported = gc_supported,
    .Start = gc_start,
    .Stop = gc_stop,
    .Version = 0x10,
};

static const struct ember_driver gc_driver = {
    .name = u"Graphics Console Driver",
    .binding = &gc_binding,
};
EMBER_DRIVER(INIT_CONSOLE, gc_driver);
