/* The console splitter: ConIn, ConOut and StdErr as virtual consoles over every text
 * device. Devices are found as their protocols are installed (RegisterProtocolNotify on
 * SimpleTextOut, SimpleTextIn and SimpleTextInEx) and when drivers are connected (the
 * driver binding below); the splitter opens their protocols BY_DRIVER, so a device that
 * goes away is taken out first (the core calls Stop when its protocols are uninstalled). */
#define LOG_PREFIX "splitter: "
#include <ember/drivers/console_splitter.h>
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include "splitter.h"

static EFI_DRIVER_BINDING_PROTOCOL splitter_binding;

static struct {
	bool started;
	struct splitter_in *con_in;
	struct splitter_out *con_out, *std_err;
	void *registration[3];
} splitter;

static EFI_HANDLE agent(void)
{
	return splitter_binding.DriverBindingHandle;
}

static bool is_ours(EFI_HANDLE h)
{
	return (splitter.con_in && h == splitter.con_in->handle) ||
	       (splitter.con_out && h == splitter.con_out->handle) ||
	       (splitter.std_err && h == splitter.std_err->handle);
}

/* ember-run's stderr device is the system's StdErr: it must not show ConOut's text. */
static bool belongs_to_con_out(EFI_HANDLE h)
{
	return splitter.con_out && !splitter_out_has(splitter.con_out, h) &&
	       (splitter.std_err || h != core_st->StandardErrorHandle);
}

static bool wants_output(EFI_HANDLE h)
{
	void *out;

	if (EFI_ERROR(protocol_get(h, &efi_simple_text_output_protocol_guid, &out)))
		return false;
	return belongs_to_con_out(h) ||
	       (splitter.std_err && !splitter_out_has(splitter.std_err, h));
}

static bool wants_input(EFI_HANDLE h)
{
	void *in;

	if (!splitter.con_in || splitter_in_has(splitter.con_in, h))
		return false;
	return !EFI_ERROR(protocol_get(h, &efi_simple_text_input_protocol_guid, &in)) ||
	       !EFI_ERROR(protocol_get(h, &efi_simple_text_input_ex_protocol_guid, &in));
}

static bool add_output(EFI_HANDLE h)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out;
	EFI_STATUS status = protocol_open(h, &efi_simple_text_output_protocol_guid, (void **)&out,
					  agent(), h, EFI_OPEN_PROTOCOL_BY_DRIVER);
	bool added = false, in_con_out = false;

	if (status != EFI_SUCCESS && status != EFI_ALREADY_STARTED) {
		log_debug("%p: opening SimpleTextOut: %r\n", h, status);
		return false;
	}
	if (belongs_to_con_out(h))
		in_con_out = added = splitter_out_add(splitter.con_out, h, out, true);
	/* StdErr shares ConOut's devices as ConOut has set them up. */
	if (splitter.std_err && !splitter_out_has(splitter.std_err, h))
		added |= splitter_out_add(splitter.std_err, h, out, !in_con_out);
	if (status == EFI_SUCCESS && !added)
		protocol_close(h, &efi_simple_text_output_protocol_guid, agent(), h);
	return added;
}

/* Opens one input protocol BY_DRIVER; NULL when the handle lacks it or it is taken. */
static void *open_input(EFI_HANDLE h, const EFI_GUID *guid)
{
	void *interface = NULL;

	if (protocol_open(h, guid, &interface, agent(), h, EFI_OPEN_PROTOCOL_BY_DRIVER) !=
	    EFI_SUCCESS)
		return NULL;
	return interface;
}

static bool add_input(EFI_HANDLE h)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = open_input(h, &efi_simple_text_input_protocol_guid);
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *in_ex =
	    open_input(h, &efi_simple_text_input_ex_protocol_guid);

	if (!in && !in_ex) {
		log_debug("%p: cannot open its text input\n", h);
		return false;
	}
	if (splitter_in_add(splitter.con_in, h, in, in_ex))
		return true;
	/* splitter_in_add said why not */
	if (in)
		protocol_close(h, &efi_simple_text_input_protocol_guid, agent(), h);
	if (in_ex)
		protocol_close(h, &efi_simple_text_input_ex_protocol_guid, agent(), h);
	return false;
}

/* Text protocols on an image's handle are a program's own, not a device: the EDK2 Shell
 * publishes its console logger, which writes to ConOut, there. Taking it would send
 * ConOut's text back into ConOut for ever. */
static bool is_program(EFI_HANDLE h)
{
	void *loaded;

	return !EFI_ERROR(protocol_get(h, &efi_loaded_image_protocol_guid, &loaded));
}

/* Takes a handle's text protocols into the consoles that want them; true if any. */
static bool add_device(EFI_HANDLE h)
{
	bool added = false;

	if (!splitter.started || !agent() || is_ours(h) || is_program(h))
		return false;
	if (wants_output(h))
		added |= add_output(h);
	if (wants_input(h))
		added |= add_input(h);
	if (added)
		log_debug("added device %p out=%d in=%d\n", h,
			  splitter.con_out && splitter_out_has(splitter.con_out, h),
			  splitter.con_in && splitter_in_has(splitter.con_in, h));
	return added;
}

static void remove_device(EFI_HANDLE h)
{
	if (splitter.con_out)
		splitter_out_remove(splitter.con_out, h);
	if (splitter.std_err)
		splitter_out_remove(splitter.std_err, h);
	if (splitter.con_in)
		splitter_in_remove(splitter.con_in, h);
	protocol_close(h, &efi_simple_text_output_protocol_guid, agent(), h);
	protocol_close(h, &efi_simple_text_input_protocol_guid, agent(), h);
	protocol_close(h, &efi_simple_text_input_ex_protocol_guid, agent(), h);
}

/* A text protocol was installed somewhere: take every new handle the registration has. */
static void EFIAPI device_arrived(EFI_EVENT event, void *context)
{
	void *registration = *(void **)context;
	EFI_HANDLE *handles;
	UINTN count;

	while (!EFI_ERROR(
	    handle_locate_buffer(ByRegisterNotify, NULL, registration, &count, &handles))) {
		for (UINTN i = 0; i < count; i++)
			add_device(handles[i]);
		pool_free(handles);
	}
}

static EFI_STATUS watch(const EFI_GUID *protocol, void **registration)
{
	EFI_EVENT event;
	EFI_STATUS status = event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, device_arrived,
					 registration, NULL, &event);

	if (EFI_ERROR(status)) {
		log_debug("creating the event for %s: %r\n", guid_name(protocol), status);
		return status;
	}
	status = protocol_register_notify(protocol, event, registration);
	if (EFI_ERROR(status)) {
		log_debug("watching for %s: %r\n", guid_name(protocol), status);
		event_close(event);
	}
	return status;
}

/* Watches for new text output, text input and extended text input devices; stops at the
 * first that fails (watch said why). */
static EFI_STATUS watch_devices(void)
{
	EFI_STATUS status = watch(&efi_simple_text_output_protocol_guid, &splitter.registration[0]);

	if (EFI_ERROR(status))
		return status;
	status = watch(&efi_simple_text_input_protocol_guid, &splitter.registration[1]);
	if (EFI_ERROR(status))
		return status;
	return watch(&efi_simple_text_input_ex_protocol_guid, &splitter.registration[2]);
}

/* Takes the text devices that exist already (once the driver binding is installed). */
static void add_present_devices(void)
{
	EFI_HANDLE *handles;
	UINTN count;

	if (EFI_ERROR(handle_locate_buffer(AllHandles, NULL, NULL, &count, &handles)))
		return;
	for (UINTN i = 0; i < count; i++)
		add_device(handles[i]);
	pool_free(handles);
}

static EFI_STATUS create_consoles(UINT32 which)
{
	EFI_STATUS status;

	if (which & CONSOLE_SPLITTER_CON_IN) {
		status = splitter_in_create(&splitter.con_in);
		if (EFI_ERROR(status)) {
			log_debug("creating ConIn: %r\n", status);
			return status;
		}
	}
	if (which & CONSOLE_SPLITTER_CON_OUT) {
		status = splitter_out_create(&splitter.con_out);
		if (EFI_ERROR(status)) {
			log_debug("creating ConOut: %r\n", status);
			return status;
		}
	}
	if (which & CONSOLE_SPLITTER_STD_ERR) {
		status = splitter_out_create(&splitter.std_err);
		if (EFI_ERROR(status)) {
			log_debug("creating StdErr: %r\n", status);
			return status;
		}
	}
	return EFI_SUCCESS;
}

EFI_STATUS console_splitter_start(UINT32 which)
{
	EFI_STATUS status;

	if (splitter.started)
		return EFI_ALREADY_STARTED;
	status = create_consoles(which);
	if (EFI_ERROR(status))
		return status; /* a failed console stays out of the system table */
	if (splitter.con_in)
		core_set_console_in(splitter.con_in->handle, &splitter.con_in->input.in);
	if (splitter.con_out)
		core_set_console_out(splitter.con_out->handle, &splitter.con_out->text.out);
	if (splitter.std_err)
		core_set_std_err(splitter.std_err->handle, &splitter.std_err->text.out);
	splitter.started = true;
	status = watch_devices();
	add_present_devices();
	return status;
}

/* ---- Driver binding: devices found by ConnectController, and their removal ---- */

static EFI_STATUS EFIAPI splitter_supported(EFI_DRIVER_BINDING_PROTOCOL *this,
					    EFI_HANDLE controller,
					    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	if (!splitter.started || is_ours(controller) || is_program(controller))
		return EFI_UNSUPPORTED;
	return wants_output(controller) || wants_input(controller) ? EFI_SUCCESS : EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI splitter_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return add_device(controller) ? EFI_SUCCESS : EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI splitter_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       UINTN child_count, EFI_HANDLE *children)
{
	remove_device(controller);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL splitter_binding = {
    .Supported = splitter_supported,
    .Start = splitter_start,
    .Stop = splitter_stop,
    /* Low: device drivers bind first, so the splitter finds their children. */
    .Version = 0x01,
};

static const struct ember_driver splitter_driver = {
    .name = u"Console Splitter",
    .binding = &splitter_binding,
};
EMBER_DRIVER(INIT_CONSOLE, splitter_driver);
