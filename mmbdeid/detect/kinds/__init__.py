"""The opt-in identifier kinds (issue 21): towns and cities, organisations, addresses,
postcodes, identifier numbers, IP addresses and dates, each a step that runs only when its
kind is chosen (``--kinds``)."""
