module ludis.dev/dev/images/pause

go 1.24.0
