/* Between the two halves of the text input library (text_input.c, key_notify.c). */
#ifndef DRIVERS_TEXT_INPUT_INTERNAL_H
#define DRIVERS_TEXT_INPUT_INTERNAL_H

#include <ember/drivers/text_input.h>

/* Schedules the notifications a newly queued key matches (caller at TPL_NOTIFY). */
void key_notify_queue(struct text_input *ti, const EFI_KEY_DATA *key);
/* The notify_event's function: calls the matching functions for each due key. */
void EFIAPI key_notify_run(EFI_EVENT event, void *context);
EFI_STATUS key_notify_register(struct text_input *ti, const EFI_KEY_DATA *key,
			       EFI_KEY_NOTIFY_FUNCTION function, void **notify_handle);
EFI_STATUS key_notify_unregister(struct text_input *ti, void *notify_handle);
void key_notify_free_all(struct text_input *ti);

#endif
