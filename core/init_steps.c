/* Runs the init steps registered with EMBER_INIT. */
#include <ember/init.h>
#include <ember/log.h>

extern const struct ember_init_step __start_ember_init[] __attribute__((weak));
extern const struct ember_init_step __stop_ember_init[] __attribute__((weak));

EFI_STATUS init_run_all(void)
{
	EFI_STATUS first_error = EFI_SUCCESS;

	for (const struct ember_init_step *s = __start_ember_init; s && s < __stop_ember_init;
	     s++) {
		EFI_STATUS status = s->run();
		if (EFI_ERROR(status)) {
			log_warn("init step %s: %r\n", s->name, status);
			if (!EFI_ERROR(first_error))
				first_error = status;
		}
	}
	return first_error;
}
