/* Jobs of StartupAllAPs and StartupThisAP: which APs run a procedure, in parallel or one
 * after another, until when, and who is told at the end. A blocking job is driven by its
 * caller; a non-blocking one by a 1 ms timer event, which signals the caller's WaitEvent
 * when every AP finished or the time ran out (APs still running are stopped with INIT
 * and listed in FailedCpuList, as PI volume 2, 13.4.4 says). */
#define LOG_PREFIX "mp: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include "cpu/io.h"
#include "cpu/mp.h"

#define POLL_PERIOD_100NS 10000 /* 1 ms */
#define SPIN_NS 100000		/* a blocking caller spins this long before it halts */

struct mp_job {
	struct mp_job *next;
	uint64_t cpus;	  /* processor numbers, as bits */
	uint64_t started; /* of those: sent INIT-SIPI */
	uint64_t done;	  /* of those: finished */
	EFI_AP_PROCEDURE procedure;
	void *argument;
	bool single_thread;
	uint64_t deadline_ns; /* 0: none */
	EFI_EVENT wait_event; /* NULL: blocking */
	UINTN **failed_cpu_list;
	BOOLEAN *finished;
};

static struct mp_job *jobs; /* the non-blocking ones */
static uint64_t busy;	    /* processors in a job */
static EFI_EVENT poll_event;

bool mp_busy(uint32_t n)
{
	return busy & (1ULL << n);
}

static void start(struct mp_job *job, uint32_t n)
{
	mp_cpus[n]->procedure = job->procedure;
	mp_cpus[n]->argument = job->argument;
	job->started |= 1ULL << n;
	if (!mp_start_ap(n))
		log_debug("processor %u could not be started\n", n);
}

/* Collects finished APs and starts the next one; true when all are done. */
static bool job_step(struct mp_job *job, uint64_t now)
{
	for (uint32_t n = 1; n < mp_cpu_count; n++) {
		uint64_t bit = 1ULL << n;

		if (!(job->started & bit) || (job->done & bit))
			continue;
		if (__atomic_load_n(&mp_cpus[n]->state, __ATOMIC_ACQUIRE) == MP_FINISHED) {
			mp_stop_ap(n); /* back to wait-for-SIPI: it runs nothing while idle */
			job->done |= bit;
		} else {
			mp_nudge_ap(n, now);
		}
	}
	if (job->single_thread && job->started == job->done && job->done != job->cpus)
		start(job, (uint32_t)__builtin_ctzll(job->cpus & ~job->started));
	return job->done == job->cpus;
}

/* END_OF_CPU_LIST-terminated numbers of the APs that did not finish. */
static UINTN *failed_list(uint64_t failed)
{
	UINTN *list = pool_alloc((MP_MAX_CPUS + 1) * sizeof(UINTN)), count = 0;

	if (!list)
		return NULL;
	for (uint32_t n = 1; n < mp_cpu_count; n++)
		if (failed & (1ULL << n))
			list[count++] = n;
	list[count] = END_OF_CPU_LIST;
	return list;
}

/* Ends the job: APs still running are stopped; true when all had finished. */
static bool job_end(struct mp_job *job)
{
	uint64_t failed = job->cpus & ~job->done;
	EFI_TPL old;

	for (uint32_t n = 1; n < mp_cpu_count; n++)
		if (failed & job->started & (1ULL << n))
			mp_stop_ap(n);
	old = tpl_raise(TPL_NOTIFY); /* the poll event ends other jobs */
	busy &= ~job->cpus;
	tpl_restore(old);
	if (job->failed_cpu_list)
		*job->failed_cpu_list = failed ? failed_list(failed) : NULL;
	if (job->finished)
		*job->finished = !failed;
	return !failed;
}

static bool timed_out(const struct mp_job *job, uint64_t now)
{
	return job->deadline_ns && now >= job->deadline_ns;
}

static void EFIAPI poll_jobs(EFI_EVENT event, void *context)
{
	uint64_t now = core_time_ns();

	for (struct mp_job **p = &jobs; *p;) {
		struct mp_job *job = *p;

		if (!job_step(job, now) && !timed_out(job, now)) {
			p = &job->next;
			continue;
		}
		*p = job->next;
		job_end(job);
		if (event_is_valid(job->wait_event))
			event_signal(job->wait_event);
		pool_free(job);
	}
	if (!jobs)
		event_set_timer(poll_event, TimerCancel, 0);
}

/* Waits a little for the APs: halted until the next timer tick once a short spin did
 * not see them finish (a halted BSP also lets QEMU run the APs when it runs them in
 * turn, as under -icount). */
static void wait_a_little(uint64_t since)
{
	if (core_time_ns() - since < SPIN_NS || !(read_flags() & FLAGS_IF))
		__asm__ __volatile__("pause");
	else
		__asm__ __volatile__("hlt");
}

static EFI_STATUS run_blocking(struct mp_job *job)
{
	uint64_t since = core_time_ns(), now = since;

	while (!job_step(job, now)) {
		if (timed_out(job, now))
			break;
		wait_a_little(since);
		now = core_time_ns();
	}
	return job_end(job) ? EFI_SUCCESS : EFI_TIMEOUT;
}

static EFI_STATUS run_nonblocking(struct mp_job *job)
{
	EFI_STATUS status = EFI_SUCCESS;
	struct mp_job *copy;
	EFI_TPL old;

	if (!poll_event)
		status = event_create(EVT_TIMER | EVT_NOTIFY_SIGNAL, TPL_NOTIFY, poll_jobs, NULL,
				      NULL, &poll_event);
	copy = EFI_ERROR(status) ? NULL : pool_dup(job, sizeof(*job));
	if (!copy) {
		job_end(job);
		return EFI_OUT_OF_RESOURCES;
	}
	old = tpl_raise(TPL_NOTIFY);
	copy->next = jobs;
	jobs = copy;
	event_set_timer(poll_event, TimerPeriodic, POLL_PERIOD_100NS);
	tpl_restore(old);
	return EFI_SUCCESS;
}

EFI_STATUS mp_job_run(uint64_t cpus, EFI_AP_PROCEDURE procedure, void *argument, bool single_thread,
		      EFI_EVENT wait_event, UINTN timeout_us, UINTN **failed_cpu_list,
		      BOOLEAN *finished)
{
	struct mp_job job = {
	    .cpus = cpus,
	    .procedure = procedure,
	    .argument = argument,
	    .single_thread = single_thread,
	    .wait_event = wait_event,
	    .failed_cpu_list = failed_cpu_list,
	    .finished = finished,
	};
	EFI_TPL old;

	if (failed_cpu_list)
		*failed_cpu_list = NULL;
	if (finished)
		*finished = FALSE;
	if (timeout_us)
		job.deadline_ns = core_time_ns() + (uint64_t)timeout_us * 1000;
	old = tpl_raise(TPL_NOTIFY);
	busy |= cpus;
	tpl_restore(old);
	if (single_thread)
		start(&job, (uint32_t)__builtin_ctzll(cpus));
	else
		for (uint32_t n = 1; n < mp_cpu_count; n++)
			if (cpus & (1ULL << n))
				start(&job, n);
	return wait_event ? run_nonblocking(&job) : run_blocking(&job);
}
