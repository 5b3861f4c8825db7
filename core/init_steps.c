/* Runs the init steps registered with EMBER_INIT, level by level, by name within a level. */
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

extern const struct ember_init_step __start_ember_init[] __attribute__((weak));
extern const struct ember_init_step __stop_ember_init[] __attribute__((weak));

/* The step of level after `done` in name order (NULL: none left). Quadratic, but there are
 * a handful of steps and no memory to sort them in. */
static const struct ember_init_step *next_step(enum init_level level,
					       const struct ember_init_step *done)
{
	const struct ember_init_step *best = NULL;

	for (const struct ember_init_step *s = __start_ember_init; s && s < __stop_ember_init;
	     s++) {
		if (s->level != level || (done && str8_cmp(s->name, done->name) <= 0))
			continue;
		if (!best || str8_cmp(s->name, best->name) < 0)
			best = s;
	}
	return best;
}

EFI_STATUS init_run_all(void)
{
	EFI_STATUS first_error = EFI_SUCCESS;

	for (int level = 0; level < INIT_LEVELS; level++) {
		for (const struct ember_init_step *s = next_step(level, NULL); s;
		     s = next_step(level, s)) {
			EFI_STATUS status = s->run();
			if (EFI_ERROR(status)) {
				log_warn("init step %s: %r\n", s->name, status);
				if (!EFI_ERROR(first_error))
					first_error = status;
			}
		}
	}
	return first_error;
}
