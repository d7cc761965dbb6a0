from tapete.cli import main

raise SystemExit(main())
