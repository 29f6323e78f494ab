from wavehost.cli import main

raise SystemExit(main())
