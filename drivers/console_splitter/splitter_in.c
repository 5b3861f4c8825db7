/* The virtual text input: SimpleTextIn and SimpleTextInEx (UEFI 2.10, 12.2 and 12.3) that
 * take keys from every text input device into one queue, so WaitForKey, ReadKeyStroke and
 * key notifications registered here see keys from any device. */
#define LOG_PREFIX "splitter: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "splitter.h"
#include <ember/lib/guids.h>

static struct splitter_in *splitter_from_input(struct text_input *ti)
{
	return container_of(ti, struct splitter_in, input);
}

/* One key from a device, by SimpleTextInEx where it has one. */
static bool device_read(const struct splitter_in_device *d, EFI_KEY_DATA *key)
{
	*key = (EFI_KEY_DATA){0};
	if (d->in_ex)
		return d->in_ex->ReadKeyStrokeEx(d->in_ex, key) == EFI_SUCCESS;
	return d->in->ReadKeyStroke(d->in, &key->Key) == EFI_SUCCESS;
}

/* Takes what each device has, while there is room (called at TPL_NOTIFY). */
static void splitter_poll(struct text_input *ti)
{
	struct splitter_in *s = splitter_from_input(ti);

	for (UINT32 i = 0; i < s->device_count; i++) {
		EFI_KEY_DATA key;

		while (text_input_room(ti) && device_read(&s->devices[i], &key)) {
			/* Keys from a device without InEx carry the splitter's toggle state. */
			if (!s->devices[i].in_ex)
				key.KeyState.KeyToggleState = ti->toggle_state;
			text_input_push(ti, &key);
		}
	}
}

static EFI_STATUS splitter_reset(struct text_input *ti, bool extended)
{
	struct splitter_in *s = splitter_from_input(ti);
	EFI_STATUS status = EFI_SUCCESS;

	for (UINT32 i = 0; i < s->device_count; i++) {
		struct splitter_in_device *d = &s->devices[i];
		EFI_STATUS r =
		    d->in_ex ? d->in_ex->Reset(d->in_ex, extended) : d->in->Reset(d->in, extended);
		if (EFI_ERROR(r))
			status = EFI_DEVICE_ERROR;
	}
	return status;
}

/* The lights of every keyboard follow; devices without them are no error. */
static EFI_STATUS splitter_set_state(struct text_input *ti, EFI_KEY_TOGGLE_STATE state)
{
	struct splitter_in *s = splitter_from_input(ti);

	for (UINT32 i = 0; i < s->device_count; i++) {
		EFI_KEY_TOGGLE_STATE copy = state;
		if (s->devices[i].in_ex)
			s->devices[i].in_ex->SetState(s->devices[i].in_ex, &copy);
	}
	return EFI_SUCCESS;
}

static const struct text_input_ops splitter_input_ops = {
    .poll = splitter_poll,
    .reset = splitter_reset,
    .set_state = splitter_set_state,
};

bool splitter_in_has(const struct splitter_in *s, EFI_HANDLE handle)
{
	for (UINT32 i = 0; i < s->device_count; i++)
		if (s->devices[i].handle == handle)
			return true;
	return false;
}

bool splitter_in_add(struct splitter_in *s, EFI_HANDLE handle, EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in,
		     EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *in_ex)
{
	EFI_TPL old;
	bool added = false;

	old = tpl_raise(TPL_NOTIFY);
	if (s->device_count < SPLITTER_MAX_DEVICES) {
		s->devices[s->device_count++] = (struct splitter_in_device){handle, in, in_ex};
		added = true;
	}
	tpl_restore(old);
	if (!added)
		log_debug("%p: too many input devices\n", handle);
	return added;
}

void splitter_in_remove(struct splitter_in *s, EFI_HANDLE handle)
{
	EFI_TPL old = tpl_raise(TPL_NOTIFY);

	for (UINT32 i = 0; i < s->device_count; i++)
		if (s->devices[i].handle == handle) {
			s->devices[i] = s->devices[--s->device_count];
			break;
		}
	tpl_restore(old);
}

EFI_STATUS splitter_in_create(struct splitter_in **in)
{
	struct splitter_in *s = pool_alloc(sizeof(*s));
	EFI_STATUS status;

	if (!s) {
		log_debug("no memory for the text input console\n");
		return EFI_OUT_OF_RESOURCES;
	}
	status = text_input_init(&s->input, &splitter_input_ops, false);
	if (EFI_ERROR(status))
		goto err_free; /* text_input_init said which step */
	status = protocol_install_multiple(&s->handle, &efi_simple_text_input_protocol_guid,
					   &s->input.in, &efi_simple_text_input_ex_protocol_guid,
					   &s->input.in_ex, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing SimpleTextIn and SimpleTextInEx: %r\n", status);
		goto err_input;
	}
	*in = s;
	return EFI_SUCCESS;

err_input:
	text_input_fini(&s->input);
err_free:
	pool_free(s);
	return status;
}
