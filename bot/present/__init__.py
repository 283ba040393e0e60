"""The presentation layer: the core's events as screens in the reader's language.

Every phrase and label shown to players has one home here (through the gettext
catalogs in ``bot/locales``); front ends map what this layer gives them to their
widgets and add no text of their own beyond platform chrome (design.md, "Shape").
"""
