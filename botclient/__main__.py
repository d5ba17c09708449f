from botclient.cli import main

raise SystemExit(main())
