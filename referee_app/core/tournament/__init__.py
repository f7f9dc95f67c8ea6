"""The tournament desk: a Swiss tournament run the French federation's way (ffc-tournament).

`model` is the tournament as data (the contract's file format), `ffc` the federation's numbers
read from the knowledge base, `standings` and `pairing` the two computations the text describes,
`checker` re-pairs a finished tournament, `generator` makes random ones for tests, `export`
writes CSV and the plain-text ranking file, `store` keeps tournaments in the records database.
"""
