# ruff: noqa: E501 - the requests are kept as written, one paragraph a line
"""Source of benchmarks/judged/long-django/: long requests over the Django 3.2 documentation.

Written by hand as customers, support tickets, analysts and managers write them; each with the documents a
good answer needs (found by reading them) and short answer strings that stand verbatim in those documents.
``python -m benchmarks.judged.src.build`` turns this list into the split question files.
"""

from __future__ import annotations

REQUESTS: list[dict[str, object]] = [
    {
        "id": "django-01",
        "question": """Hi, I'm the only backend person at a small startup (we sell refurbished espresso machines, long story) and we're about to take our Django 3.2 site live next Tuesday. Up to now it has only ever run with runserver on my laptop.

Can you act as a senior Django consultant and give me a go-live checklist? Specifically: which settings absolutely must change before production (I know DEBUG, but what else?), whether Django has some built in command that checks the deployment config for me, and what I should do about HTTPS related settings like cookies.

Our CEO also asked if we need to change the SECRET_KEY that's currently in git. Please keep it practical, I don't have time for theory.""",
        "gold_sources": ["howto/deployment/checklist", "topics/security", "ref/settings"],
        "answers": ["check --deploy", "ALLOWED_HOSTS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"],
    },
    {
        "id": "django-02",
        "question": """Support ticket #4471 - Priority: High

Customer: regional newspaper, runs their CMS on Django 3.2 behind nginx.

Description from customer: "After moving to the new server all our CSS is gone and the admin looks broken, plain HTML only. Also photos that journalists upload through the admin do not show up on article pages, we get 404s. Everything worked on the old box where we ran with DEBUG=True (I know, I know). We didn't change any code, just copied the project folder."

As second-level support, please explain to me (I'm not a Django expert) what the customer most likely missed for static files versus user uploaded media, which settings and which management command are involved, and what the web server has to serve. I need to write a reply the customer can follow step by step.""",
        "gold_sources": [
            "howto/static-files/index",
            "howto/static-files/deployment",
            "topics/files",
            "ref/settings",
        ],
        "answers": ["collectstatic", "STATIC_ROOT", "MEDIA_ROOT", "MEDIA_URL"],
    },
    {
        "id": "django-03",
        "question": """I'm a data analyst who got pulled into a performance review of our internal reporting tool (Django + Postgres). The dashboard page listing 500 orders with their customer and line items takes 9 seconds and the DB team says the page fires more than 1,500 queries. Apparently that's the "N+1 problem"?

I'd like you to play the role of a performance engineer writing a short memo for my manager. Explain why this happens with the Django ORM, which QuerySet methods fix it for foreign keys versus many-to-many / reverse relations, and what other general database access optimisations Django's documentation recommends (indexes, retrieving only the fields you need, counting etc).

Bonus if you can tell me how to see the SQL Django is actually running. Thanks!!""",
        "gold_sources": ["topics/db/optimization", "ref/models/querysets", "topics/performance"],
        "answers": ["select_related", "prefetch_related", "connection.queries"],
    },
    {
        "id": "django-04",
        "question": """Hello,

I manage a team of four developers maintaining three Django applications for a logistics company. Our stack is Django 3.2 and finance wants to know how long we can stay on it before we're forced to upgrade, and how much effort an upgrade typically is. I'm not technical enough to read the source, so I'm relying on the official docs.

Could you summarise (1) how Django numbers and schedules its releases, what an LTS release is and how long it receives security fixes, (2) how deprecations work so we know what breaks between versions, and (3) the recommended procedure for upgrading a project, including how to spot deprecation warnings before upgrading.

Please write it as a one-page briefing I could forward to our CFO. Our budget cycle starts in March, fyi.""",
        "gold_sources": ["internals/release-process", "internals/deprecation", "howto/upgrade-version"],
        "answers": ["long-term support", "-Wa"],
    },
    {
        "id": "django-05",
        "question": """we inherited a django site from an agency that went bust. the user table has ~40k accounts and the passwords were imported years ago from an old PHP system, I think they are unsalted MD5 hashes. security audit says we must move to a modern algorithm (they mentioned argon2 or bcrypt) WITHOUT forcing everybody to reset their password.

How does Django store passwords and decide which algorithm to use, how do I switch the default to Argon2, and is there a documented way to upgrade the old weak hashes in place without waiting for users to log in? Also what does Django use by default out of the box?

Answer as if you were explaining it to the auditor, please, they like precise names of settings and classes.""",
        "gold_sources": ["topics/auth/passwords", "ref/settings"],
        "answers": ["PASSWORD_HASHERS", "Argon2PasswordHasher", "PBKDF2PasswordHasher"],
    },
    {
        "id": "django-06",
        "question": """Hey there. Six months into our project (a booking platform for dog groomers, 30 tables so far, running in production) the product owner now wants users to log in with their email address instead of a username, and to store a phone number and a preferred-groomer field on the user.

I've read conflicting blog posts. Some say "always start with a custom user model", some say a profile model is enough. Please act as a Django architect and tell me: what are my options according to the official docs, what setting points Django at a custom user model, which base classes I can extend, and why changing the user model mid-project is risky. If there's a documented path for doing it after the first migration, tell me that too.

We're on Postgres 12 if that matters.""",
        "gold_sources": ["topics/auth/customizing", "ref/settings"],
        "answers": ["AUTH_USER_MODEL", "AbstractUser", "AbstractBaseUser"],
    },
    {
        "id": "django-07",
        "question": """Our e-commerce product pages are rendered by Django 3.2 and under load (Black Friday, sigh) the database melts. Ops already set up a memcached server that we've never used.

Could you write me an implementation plan as a backend lead would: how to configure Django's cache framework with memcached (which backend class, what the CACHES setting looks like), how to cache a whole view for 15 minutes versus only a fragment of a template (the product sidebar is the expensive part), and how the site-wide cache middleware works and in which order the middleware must go.

I also heard there's a dummy cache for development, please mention it. My colleague Jens insists we should just cache everything for a day, feel free to tell me if that's a bad idea.""",
        "gold_sources": ["topics/cache", "ref/settings", "ref/middleware"],
        "answers": ["cache_page", "PyMemcacheCache", "UpdateCacheMiddleware", "DummyCache"],
    },
    {
        "id": "django-08",
        "question": """Good morning,

I'm a freelance developer building a small volunteer-management app for a local sports club. Two things I need:

First, the app has to send emails (confirmation of sign-ups, reminders). The club uses an SMTP server from their hosting provider. How do I configure Django for SMTP, and how can I avoid sending real emails while I develop (I want to see them in the terminal)?

Second, when something crashes in production I'd like to be emailed the error automatically, with the traceback. I believe Django can do that out of the box? Which settings do I need and what gets reported (404s too?).

Thanks a lot, and sorry if these are beginner questions, I usually do Flask.""",
        "gold_sources": ["topics/email", "howto/error-reporting", "ref/settings"],
        "answers": ["EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend", "ADMINS", "MANAGERS"],
    },
    {
        "id": "django-09",
        "question": """Ticket: Appointment times off by one or two hours

Reporter: clinic-scheduler team (Django 3.2, Postgres, servers in UTC, clinics in Berlin and Lisbon)

Users see appointment times shifted after the daylight-saving change in March. Our developer says we "store naive datetimes" and gets a warning in the logs about "received a naive datetime while time zone support is active". Nobody on the team knows exactly how Django handles time zones.

Please explain, as the Django expert on this ticket: what USE_TZ does and what is stored in the database when it's on, how to get the current time correctly in code, how to display times in the user's local time zone in templates, and what that naive datetime warning means and how to fix it. Keep it concrete, we need to fix this before the next DST change.""",
        "gold_sources": ["topics/i18n/timezones", "ref/settings"],
        "answers": ["USE_TZ", "timezone.now()", "RuntimeWarning"],
    },
    {
        "id": "django-10",
        "question": """Hi! I'm a product manager for a Django-based learning platform. We're expanding from Germany to Portugal and Brazil, and marketing wants the whole site (templates, emails, form errors) in Portuguese by Q3.

Our devs have never done i18n. I'd like to understand the workflow so I can plan it: how strings are marked for translation in Python code and templates, which commands extract the strings into files for our translators and compile them, and how Django picks the language for each visitor (URL prefix, cookie, browser header?).

Please be the friendly localisation expert here and give me a plan with the steps in order. Also, is there a difference between pt and pt-br in Django? The Brazilian team is very insistent about it.""",
        "gold_sources": ["topics/i18n/translation", "ref/django-admin", "ref/middleware"],
        "answers": ["makemessages", "compilemessages", "LocaleMiddleware", "gettext"],
    },
    {
        "id": "django-11",
        "question": """We run a Django 3.2 SaaS with a Postgres primary and two read replicas (streaming replication). Right now all queries go to the primary and it's at 85% CPU. The DBA wants reads to go to the replicas and writes to the primary.

As a staff engineer, I need a design doc section on how to do this in Django: how to declare several databases, how automatic routing works (which class and methods), how to force a particular query to a particular database, and what the caveats are (replication lag, relations across databases, the test runner). Include the relevant setting names.

Context: we also have one legacy MySQL database for billing that is read-only for us, in case that changes the answer.""",
        "gold_sources": ["topics/db/multi-db", "ref/settings"],
        "answers": ["DATABASE_ROUTERS", "db_for_read", "db_for_write", "using()"],
    },
    {
        "id": "django-12",
        "question": """Bug report from our QA lead:

"When a customer places an order we save the Order, then the OrderLines, then send the confirmation email. Twice this week the email went out but the order doesn't exist in the DB (the line items failed validation and the whole thing was rolled back, apparently). Also occasionally we see half-saved orders."

I'm the developer on call. Please act as a Django mentor and explain how Django handles database transactions by default (autocommit?), how to make the view's writes all-or-nothing (per request vs per block), and the documented way to run the email sending only after the transaction has actually committed. Also: what happens if I catch a database exception inside an atomic block?""",
        "gold_sources": ["topics/db/transactions"],
        "answers": ["ATOMIC_REQUESTS", "atomic", "on_commit", "autocommit"],
    },
    {
        "id": "django-13",
        "question": """Hallo, my team builds a document archive for a law firm on Django 3.2. Lawyers upload PDFs of 50-300 MB and the upload sometimes fails or the server memory spikes.

Could you explain how Django processes file uploads: when is an upload kept in memory and when is it streamed to a temporary file (what's the threshold by default), which settings control this, and how big a request body Django accepts before raising an error? Also how to customise upload handling, e.g. to show a progress bar.

Please answer as a technical consultant, with setting names and default values, I need to pass this to our ops team who will tune nginx as well. (nginx config is not your problem, don't worry.)""",
        "gold_sources": ["topics/http/file-uploads", "ref/settings", "ref/files/uploads"],
        "answers": [
            "FILE_UPLOAD_MAX_MEMORY_SIZE",
            "2621440",
            "DATA_UPLOAD_MAX_MEMORY_SIZE",
            "TemporaryFileUploadHandler",
        ],
    },
    {
        "id": "django-14",
        "question": """Compliance question from our DPO (we're a health insurer, so everything is sensitive):

"How long do users stay logged in to the member portal, and where is session data kept? Can we make sessions end when the browser closes? Are the session cookies protected against JavaScript access?"

The portal is a Django 3.2 app using the defaults as far as I know. Please act as a security-minded Django developer and answer each of the DPO's questions with the setting names and their default values, and list which session storage backends exist (database, cache, files, cookies) with their security trade-offs, especially the cookie-based one.""",
        "gold_sources": ["topics/http/sessions", "ref/settings"],
        "answers": [
            "SESSION_COOKIE_AGE",
            "1209600",
            "SESSION_EXPIRE_AT_BROWSER_CLOSE",
            "SESSION_COOKIE_HTTPONLY",
        ],
    },
    {
        "id": "django-15",
        "question": """hi all, frontend dev here (React), backend is Django 3.2 and it's not my area.

Every POST from my fetch() calls returns 403 "CSRF verification failed". The backend guy is on holiday until the 14th. I found out that I need some token but I don't understand where it comes from and how to send it with AJAX. Also our React app is served from a different subdomain (app.example.com, the API is api.example.com).

Can you pretend to be the backend guy and explain: how Django's CSRF protection works, how to get the token in JavaScript and which header to send it in, what settings matter for our cross-subdomain setup, and whether I can just disable CSRF for the API views (and why that might be a bad idea)?""",
        "gold_sources": ["ref/csrf", "ref/settings"],
        "answers": ["X-CSRFToken", "csrf_exempt", "CSRF_TRUSTED_ORIGINS", "CSRF_COOKIE_DOMAIN"],
    },
    {
        "id": "django-16",
        "question": """We just had an external pentest of our Django 3.2 customer portal. Findings (paraphrased): "missing HSTS header", "site can be framed by other origins (clickjacking)", "no X-Content-Type-Options header", "cookies sent over plain HTTP".

I'm the tech lead and need to reply to each finding with how we fix it in Django. Please take the role of an application security specialist and map each finding to the Django middleware and settings that address it, with their defaults, and tell me about anything risky in enabling them (I've heard HSTS can lock people out if misconfigured).

Also, just FYI, the pentesters complained about our password policy but that's a separate ticket, ignore that.""",
        "gold_sources": ["topics/security", "ref/clickjacking", "ref/middleware", "ref/settings"],
        "answers": [
            "SECURE_HSTS_SECONDS",
            "X_FRAME_OPTIONS",
            "XFrameOptionsMiddleware",
            "SECURE_CONTENT_TYPE_NOSNIFF",
        ],
    },
    {
        "id": "django-17",
        "question": """Hi, I'm the operations manager at a wholesale bakery (yes really). Our developer built us a Django admin to manage orders and customers but he left and I have to make small changes myself. I know a little Python.

What I want: in the orders list, show the customer name, the delivery date and the total as columns, add a search box for customer name, and filters on the side by delivery date and status. And a button to export the selected orders to a CSV file for our accountant.

Please act as a patient Django tutor and explain where these things are configured in the admin, which options I need, and how to build the CSV export action. Short code examples would help a lot!""",
        "gold_sources": ["ref/contrib/admin/index", "ref/contrib/admin/actions", "howto/outputting-csv"],
        "answers": ["list_display", "search_fields", "list_filter", "csv.writer"],
    },
    {
        "id": "django-18",
        "question": """Our CI pipeline for a Django 3.2 monolith takes 38 minutes, mostly the test suite (about 4,200 tests). My engineering manager asked me to find ways to speed it up and to explain why some tests use TestCase and others TransactionTestCase.

As a testing expert, please explain the differences between Django's test case classes and how they isolate the database, how the test database is created and whether it can be reused between runs, how to run tests in parallel, and any other speed tips in the docs (I think password hashers matter?).

We use GitLab CI with Postgres 13 as a service container, in case that's relevant.""",
        "gold_sources": [
            "topics/testing/overview",
            "topics/testing/tools",
            "topics/testing/advanced",
            "topics/performance",
        ],
        "answers": ["TransactionTestCase", "--keepdb", "--parallel", "MD5PasswordHasher"],
    },
    {
        "id": "django-19",
        "question": """Team lead here. We're 7 developers on one Django project and migrations are becoming a pain: two people add migrations on different branches and after merging, migrate complains about conflicting leaf nodes; the migrations folder of our main app has 240 files and running tests is slow because of them; and we need to backfill a new column from existing data.

Could you write a guide for the team as a senior Django developer: how to resolve migration conflicts after merges, how to reduce the number of migrations, and the right way to write a data migration (and how to make it reversible). Mention the commands and operations by name.

(Some devs want to delete all migrations and start fresh in production, please comment on that too.)""",
        "gold_sources": [
            "topics/migrations",
            "howto/writing-migrations",
            "ref/migration-operations",
            "ref/django-admin",
        ],
        "answers": ["squashmigrations", "RunPython", "--merge"],
    },
    {
        "id": "django-20",
        "question": """Hello, I am CTO at a fintech startup. One of our Django 3.2 services is now calling three slow external APIs per request and our developers want to use async views. We currently deploy with gunicorn (WSGI) behind a load balancer.

Please prepare a technical recommendation as an independent Django consultant: what async support Django 3.2 actually has (views, ORM, middleware), what we'd gain or lose running async views under WSGI versus ASGI, which ASGI servers the docs describe and how to start our project with one of them, and how to call synchronous code such as the ORM from an async view safely.

We'd like to decide in the architecture meeting on Thursday, so pros/cons are more useful than tutorials.""",
        "gold_sources": [
            "topics/async",
            "howto/deployment/asgi/index",
            "howto/deployment/asgi/uvicorn",
            "howto/deployment/wsgi/gunicorn",
        ],
        "answers": ["sync_to_async", "uvicorn", "SynchronousOnlyOperation"],
    },
    {
        "id": "django-21",
        "question": """I'm on the SRE team and we're centralising logs from all our services into Loki. One of them is a Django 3.2 app whose logging setup nobody understands: it prints some stuff to the console in dev, and in prod errors are mailed to two people who left the company in 2021.

Could you explain, like a colleague who knows Django well, how Django configures logging (which setting, which format), which loggers Django itself defines and what they log (I'm mostly interested in request errors and SQL queries), how the default config behaves with DEBUG on and off, and how that error email thing is wired up so I can switch it off and log to stdout instead.""",
        "gold_sources": ["topics/logging", "howto/error-reporting", "ref/settings"],
        "answers": ["LOGGING", "django.request", "django.db.backends", "AdminEmailHandler"],
    },
    {
        "id": "django-22",
        "question": """Quick one (well, not that quick, sorry): I'm building a public catalogue of 120,000 library books with Django 3.2. The list page obviously needs paging, and the designer wants "page 3 of 400" plus prev/next links, and no tiny last page with one or two books on it.

What does Django provide for this? How do I use it in a function-based view and in a class-based ListView, what happens when someone requests page 9999 or page "abc", and can I avoid an orphan last page? Also any performance concerns with counting 120k rows on every request?

Please answer as a Django trainer with short examples. My cat walked on the keyboard twice while writing this so excuse any typos.""",
        "gold_sources": [
            "topics/pagination",
            "ref/paginator",
            "ref/class-based-views/mixins-multiple-object",
        ],
        "answers": ["Paginator", "orphans", "EmptyPage", "paginate_by"],
    },
    {
        "id": "django-23",
        "question": """Data engineering here. We store product data in Postgres via Django 3.2 and want to use Postgres-specific features instead of serialising everything into text columns: tags as an array, flexible attributes as JSON, and fast lookups on both.

Could you act as a database-savvy Django developer and explain which model fields Django offers for arrays and JSON on PostgreSQL (and whether JSONField works on other databases too in 3.2), how to query inside them (contains, key lookups), and which index types help for these lookups. Please include the import paths.

Background: we evaluated MongoDB last year and decided against it, so please don't suggest that.""",
        "gold_sources": [
            "ref/contrib/postgres/fields",
            "ref/contrib/postgres/indexes",
            "ref/models/fields",
            "topics/db/queries",
        ],
        "answers": ["ArrayField", "JSONField", "GinIndex", "contains"],
    },
    {
        "id": "django-24",
        "question": """Ticket from the marketplace team:

"We have a post_save signal on Product that updates the search index. Products updated via the nightly import job (which uses bulk_create and queryset.update() for speed) never show up in search with their new prices. Products edited in the admin work fine."

I'm a junior dev assigned to it. Could you explain like a mentor: how Django signals work and which model signals exist, why our signal doesn't fire for the import (is this documented?), and what the options are — overriding save(), calling the indexing explicitly, something else? Also the docs say something about where to put signal registration code, I never know where to put it.""",
        "gold_sources": ["topics/signals", "ref/signals", "ref/models/querysets"],
        "answers": ["post_save", "bulk_create", "ready()"],
    },
    {
        "id": "django-25",
        "question": """Hi there,

I'm building an event registration site in Django 3.2 for a conference with ~2,000 attendees. The registration form is a ModelForm and I need some validation that the docs make confusing to me: the email must be unique per event, the end date must be after the start date (two fields together), and attendees can register several guests on one page (like a table of rows you can add).

Please act as a senior developer reviewing my approach: explain in what order Django runs field validation, clean_<field> methods and the form's clean() method, how to raise an error attached to a specific field vs the whole form, how ModelForm validation interacts with model validation and unique constraints, and which tool to use for the multiple-guests table.""",
        "gold_sources": ["ref/forms/validation", "topics/forms/modelforms", "topics/forms/formsets"],
        "answers": ["clean_<fieldname>()", "ValidationError", "add_error", "formset"],
    },
    {
        "id": "django-26",
        "question": """Our company has a 15-year-old Oracle database used by an ERP system we cannot modify. Management wants a small Django 3.2 intranet app that shows and edits some of that data (customers and invoices) — without Django creating or altering any tables in the ERP schema.

As a consultant, please tell me how Django supports integrating with an existing database: is there a tool that generates models from the existing tables, how to tell Django not to manage the tables (no migrations creating/dropping them), and any Oracle-specific notes in the database docs I should know about (version support, etc.).

The ERP vendor charges for every support call, so I want to get it right the first time.""",
        "gold_sources": ["howto/legacy-databases", "ref/models/options", "ref/django-admin", "ref/databases"],
        "answers": ["inspectdb", "managed = False", "db_table"],
    },
    {
        "id": "django-27",
        "question": """Hello! I teach a programming course at a community college and my students all have Windows 10 laptops. Next week we start a Django unit and last year half the class lost the first lesson to installation problems (PATH issues, wrong Python, pip not found...).

Could you write the installation instructions for my students, as a friendly teaching assistant would, based on the official Django docs for Windows: installing Python, creating and activating a virtual environment, installing Django, and checking it worked. Mention the common pitfalls the docs warn about.

The college network blocks some sites but PyPI works, if that matters.""",
        "gold_sources": ["howto/windows", "intro/install", "topics/install"],
        "answers": ["py -m pip install Django", "venv", "py --version"],
    },
    {
        "id": "django-28",
        "question": """I work in the security team of a bank that uses Django in several internal apps. During a code review one of our engineers believes she found a vulnerability in Django itself (in the way a form field validates input), not in our code.

Could you act as our security liaison and tell me how the Django project wants vulnerabilities reported (where to send it, what NOT to do, e.g. public tickets), what happens after reporting (how they notify people, pre-notification list, timelines), and which Django versions get security fixes so I know whether our 3.2 apps are covered?

Also my manager asked whether the Django team pays bug bounties; if the docs don't say, just say so.""",
        "gold_sources": ["internals/security", "internals/release-process"],
        "answers": ["security@djangoproject.com", "advance notification"],
    },
    {
        "id": "django-29",
        "question": """Hi, marketing manager at a travel blog here. Our SEO agency says we need an XML sitemap and RSS feeds for our destination articles, and our developer (part-time, only Fridays) says Django can do both "out of the box".

Could you explain to me, in plain language but with enough detail for the developer to implement it on Friday: which contrib apps provide sitemaps and feeds, what needs to be added to settings and URLs, how a sitemap class or a feed class is defined for our Article model, and whether Django can ping Google when the sitemap changes. Our site is on a single domain, I was told something called the "sites framework" is involved?""",
        "gold_sources": ["ref/contrib/sitemaps", "ref/contrib/syndication", "ref/contrib/sites"],
        "answers": ["django.contrib.sitemaps", "Feed", "SITE_ID", "ping_google"],
    },
    {
        "id": "django-30",
        "question": """Business intelligence analyst here. I need monthly revenue per region and the average order value per customer segment out of our Django 3.2 app's database, and I'd rather not learn the whole ORM.

Please play the role of a friendly Django developer and explain: how to do GROUP BY style aggregations with the ORM (the difference between aggregate() and annotate()), how to truncate dates to month for grouping, and when and how it's acceptable to just write raw SQL in Django (raw querysets vs executing SQL directly), including the SQL injection warning the docs give about parameters.

I have read-only access to the DB too, in case a pure SQL route is simpler — tell me honestly.""",
        "gold_sources": ["topics/db/aggregation", "topics/db/sql", "ref/models/database-functions"],
        "answers": ["annotate()", "aggregate()", "TruncMonth", "connection.cursor()"],
    },
]
