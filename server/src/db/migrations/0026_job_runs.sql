-- The last recorded run of each background job (server/src/jobs.ts; `kassa jobs list`).
CREATE TABLE "job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"instance" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ms" integer,
	"error" text,
	"runs" integer NOT NULL,
	"failures" integer NOT NULL
);
