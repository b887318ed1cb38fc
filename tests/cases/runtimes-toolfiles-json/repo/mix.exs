defmodule App.MixProject do
  use Mix.Project

  @elixir_requirement "~> 1.15"

  def project do
    [app: :app, elixir: @elixir_requirement]
  end
end
